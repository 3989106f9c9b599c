/**
 * The {@code Rouse} page of the Apache Felix Web Console: per-second samples of the three fronts kept for a minute
 * ({@link org.rouse.api.internal.console.ConsoleHistory}), served as JSON and drawn by the page's own script. Only
 * {@link org.rouse.api.internal.console.RouseConsolePlugin} names a {@code javax.servlet} type; the bundle imports
 * that package optionally and registers the plugin only when it is wired. Never exported.
 */
package org.rouse.api.internal.console;
