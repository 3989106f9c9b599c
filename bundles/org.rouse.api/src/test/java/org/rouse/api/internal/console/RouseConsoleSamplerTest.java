package org.rouse.api.internal.console;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.servlet.Servlet;
import javax.servlet.ServletOutputStream;
import javax.servlet.WriteListener;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

/**
 * The console component starts no sampler thread when it activates, only when its page's data is requested, and
 * deactivating it leaves none. The framework and the servlet container are stood in for by proxies that only carry
 * the registration and the request path; the threads are real.
 */
class RouseConsoleSamplerTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void noSamplerUntilThePageIsRequestedAndNoneAfterDeactivate() throws Exception {
        AtomicReference<Object> registered = new AtomicReference<>();
        BundleContext context = (BundleContext) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {BundleContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("registerService")) {
                        registered.set(args[1]);
                        return Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {ServiceRegistration.class},
                                (p, m, a) -> null);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        RouseConsole console = new RouseConsole();
        console.activate(context);
        try {
            assertTrue(registered.get() instanceof Servlet, "the page is registered: " + registered.get());
            assertEquals(0, OnDemandSamplerTest.samplerThreads(), "no sampler while nobody asked for the page");

            String json = get((Servlet) registered.get(), "/system/console/rouse/data.json");
            assertTrue(json.startsWith("{\"time\":"), json);
            assertEquals(1, OnDemandSamplerTest.samplerThreads(), "the request started the sampler");
        } finally {
            console.deactivate();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> OnDemandSamplerTest.samplerThreads() == 0);
    }

    /** The body of a GET of {@code uri} from {@code servlet}. */
    private static String get(Servlet servlet, String uri) throws Exception {
        HttpServletRequest request = (HttpServletRequest) Proxy.newProxyInstance(
                RouseConsoleSamplerTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getMethod" -> "GET";
                    case "getRequestURI" -> uri;
                    case "getDateHeader" -> -1L;
                    default -> null;
                });
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ServletOutputStream out = new ServletOutputStream() {
            @Override
            public void write(int b) {
                body.write(b);
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {}
        };
        HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(
                RouseConsoleSamplerTest.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class},
                (proxy, method, args) -> method.getName().equals("getOutputStream") ? out : null);
        servlet.service(request, response);
        return body.toString(StandardCharsets.UTF_8);
    }
}
