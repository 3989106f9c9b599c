/** Private implementation of the lock engine (strategies) bundle. Never exported. */
package org.rouse.lock.internal;
