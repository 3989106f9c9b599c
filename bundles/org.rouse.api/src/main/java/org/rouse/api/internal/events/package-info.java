/**
 * JDK Flight Recorder events of the Rouse services: {@code org.rouse.TimerLate}, {@code org.rouse.LockContended},
 * {@code org.rouse.SlowUpcall} and {@code org.rouse.EngineSwap}. The fronts call {@link
 * org.rouse.api.internal.events.RouseEvents}; nothing else in the bundle names a {@code jdk.jfr} type. Never exported.
 */
package org.rouse.api.internal.events;
