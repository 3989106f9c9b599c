/**
 * The selector front: the per-bundle {@link org.rouse.selector.SelectorService} views, the registration handles
 * consumers keep, and the front core that points them at whichever selector engine is active. Private to the API
 * bundle; public only so that the engine bundle's tests can drive the real front without an OSGi framework.
 */
package org.rouse.api.internal.selector;
