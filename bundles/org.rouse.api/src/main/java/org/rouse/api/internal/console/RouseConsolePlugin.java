package org.rouse.api.internal.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Hashtable;
import javax.servlet.Servlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * The {@code Rouse} page of the Apache Felix Web Console ({@code /system/console/rouse}), a plain servlet the console
 * finds by its {@code felix.webconsole.label} property, so it works with any Web Console that takes javax servlets
 * (Felix Web Console 4.x, Karaf 4.4's). It answers three paths:
 *
 * <ul>
 *   <li>{@code /system/console/rouse}: the page body (the console adds its header, menu and login);
 *   <li>{@code /system/console/rouse/data.json}: {@link ConsoleHistory#json} now, polled by the page every second;
 *   <li>{@code /system/console/rouse/rouse.js}: the page's script, which draws the charts as SVG (no external
 *       resource).
 * </ul>
 *
 * <p>The console authenticates every request before it reaches this servlet (HTTP Basic with its configured user, or
 * the container's security provider in Karaf). A path with an extension other than {@code .html} is passed through
 * without the console's page frame, which is how {@code data.json} and {@code rouse.js} come out raw.
 */
final class RouseConsolePlugin extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** The console label: the page's path below the console root. */
    static final String LABEL = "rouse";

    static final String TITLE = "Rouse";

    /** Set at construction; never serialized in practice (the console holds it in memory only). */
    private final transient ConsoleHistory history;
    /** Touched on each request for the page or its data (it starts sampling); set at construction. */
    private final transient OnDemandSampler sampler;

    RouseConsolePlugin(ConsoleHistory history, OnDemandSampler sampler) {
        this.history = history;
        this.sampler = sampler;
    }

    /**
     * Registers a plugin showing {@code history} as a {@code javax.servlet.Servlet} service of {@code context};
     * every request for the page or {@code data.json} touches {@code sampler}.
     */
    static ServiceRegistration<?> register(BundleContext context, ConsoleHistory history, OnDemandSampler sampler) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("felix.webconsole.label", LABEL);
        properties.put("felix.webconsole.title", TITLE);
        properties.put("felix.webconsole.category", "Main");
        return context.registerService(Servlet.class, new RouseConsolePlugin(history, sampler), properties);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String uri = request.getRequestURI();
        if (uri.endsWith("/" + LABEL + "/data.json")) {
            sampler.touch();
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            response.setHeader("Cache-Control", "no-store");
            response.setHeader("X-Content-Type-Options", "nosniff");
            byte[] body =
                    history.json(System.currentTimeMillis(), RecentSwaps.list()).getBytes(StandardCharsets.UTF_8);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        } else if (uri.endsWith("/" + LABEL + "/rouse.js")) {
            response.setContentType("text/javascript");
            response.setCharacterEncoding("UTF-8");
            response.setHeader("X-Content-Type-Options", "nosniff");
            copyResource("rouse.js", response.getOutputStream());
        } else if (uri.endsWith("/" + LABEL) || uri.endsWith("/" + LABEL + "/") || uri.endsWith(".html")) {
            // the page refers to its script relatively ("rouse/rouse.js"), and the script finds data.json beside
            // itself, so nothing from the request is echoed into the page
            sampler.touch();
            response.getWriter().write(new String(resource("rouse.html"), StandardCharsets.UTF_8));
        } else {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    private static void copyResource(String name, OutputStream out) throws IOException {
        out.write(resource(name));
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = RouseConsolePlugin.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing resource " + name + " in the Rouse API bundle");
            }
            return in.readAllBytes();
        }
    }
}
