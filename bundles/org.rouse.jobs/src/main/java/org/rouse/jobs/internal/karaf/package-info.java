/**
 * {@code rouse:jobs} and {@code rouse:trigger} as Apache Karaf Action commands: {@code help}, argument descriptions
 * and completion of job names in Karaf's console, {@code bin/client} and ssh. Each Action delegates to the
 * {@link org.rouse.jobs.internal.JobCommands} the whiteboard registers, which prints what the Gogo function prints.
 * Karaf's shell reads the bundle's {@code Karaf-Commands} header; the bundle imports Karaf's shell API optionally, and
 * without it nothing loads these classes. Never exported.
 */
package org.rouse.jobs.internal.karaf;
