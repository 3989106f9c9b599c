/**
 * The {@code rouse} shell commands as Apache Karaf Action commands: {@code help}, argument descriptions and
 * completion in Karaf's console, {@code bin/client} and ssh. Each Action delegates to the command object its front
 * registers ({@link org.rouse.api.internal.timer.TimerCommands},
 * {@link org.rouse.api.internal.selector.SelectorCommands}, {@link org.rouse.api.internal.lock.LockCommands}), which
 * prints the same report the Gogo function does; both shells show the same help texts.
 *
 * <p>Karaf's shell reads the bundle's {@code Karaf-Commands} header, loads the {@code @Service} classes of this
 * package and injects their {@code @Reference} fields. The bundle imports Karaf's shell API optionally: without Karaf
 * nothing loads these classes, and the fronts register their command objects as Gogo functions instead (see
 * {@link org.rouse.api.internal.GogoCommands}). Never exported.
 */
package org.rouse.api.internal.karaf;
