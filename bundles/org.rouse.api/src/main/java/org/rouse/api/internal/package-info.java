/** Private implementation of the API bundle: the fronts consumers bind to. Never exported. */
package org.rouse.api.internal;
