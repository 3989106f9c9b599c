/** Private implementation of the selector engine bundle. Never exported. */
package org.rouse.selector.internal;
