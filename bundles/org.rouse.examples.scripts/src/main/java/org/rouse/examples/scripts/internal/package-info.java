/**
 * Example consumer: an LSL-style script host on the Rouse timer service. Private; exports nothing.
 */
package org.rouse.examples.scripts.internal;
