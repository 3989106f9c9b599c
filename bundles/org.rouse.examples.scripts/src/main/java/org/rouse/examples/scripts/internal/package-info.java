/** Private implementation of the example: LSL-style script host on the timer service bundle. Never exported. */
package org.rouse.examples.scripts.internal;
