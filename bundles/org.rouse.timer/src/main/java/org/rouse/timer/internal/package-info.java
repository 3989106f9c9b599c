/** Private implementation of the timer engine bundle. Never exported. */
package org.rouse.timer.internal;
