/**
 * Whiteboard jobs: {@link java.lang.Runnable} and {@link java.util.concurrent.Callable} services with the Apache Sling
 * and Apache Karaf {@code scheduler.*} service properties, run on the Rouse timer service. Private; exports nothing.
 */
package org.rouse.jobs.internal;
