package org.rouse.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code Rouse} Web Console page of the shipped runtime, loaded in a real headless Chromium: the charts draw live
 * data and move on, the page logs no error, the console refuses requests without the configured credentials (and the
 * default {@code admin}/{@code admin} once a password is configured), the password is never printed, and a
 * non-loopback address with the default password keeps the console from starting.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class WebConsoleIT {

    private static final String USER = "operator";
    private static final String PASSWORD = "Rouse-it-5ecret";
    private static final String TIMER_POINTS = "document.querySelector('#rouse-timer-chart polyline[data-series=p99]')";

    @TempDir
    Path temp;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void theRousePageDrawsLiveChartsInChromiumAndOnlyTheConfiguredUserGetsIn() throws Exception {
        Path runtimeJar = runtimeJar();
        Path conf = conf(true);
        int port = freePort();
        String page = "http://127.0.0.1:" + port + "/system/console/rouse";

        try (ForkedRuntime runtime = new ForkedRuntime(runtimeJar, "--conf=" + conf, "--web-port=" + port)) {
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> status(page + "/data.json", USER + ":" + PASSWORD) == 200);
            assertEquals(401, status(page, null), "no credentials");
            assertEquals(401, status(page + "/data.json", null), "no credentials");
            assertEquals(401, status(page + "/data.json", "admin:admin"), "the default user no longer gets in");
            assertEquals(401, status(page + "/data.json", USER + ":wrong"), "a wrong password");
            assertTrue(
                    runtime.output()
                            .contains("web console: http://127.0.0.1:" + port + "/system/console/rouse" + " (user '"
                                    + USER + "'"),
                    runtime.output());

            try (HeadlessChromium chromium = new HeadlessChromium(temp.resolve("chromium/profile"))) {
                chromium.send("Page.enable", Map.of());
                chromium.send("Network.enable", Map.of());
                chromium.send("Page.navigate", Map.of("url", page));
                await().atMost(Duration.ofSeconds(30)).until(() -> statusSeen(chromium, page) != null);
                assertEquals(401, statusSeen(chromium, page), "the browser without credentials");

                String basic = "Basic "
                        + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
                chromium.send("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Authorization", basic)));
                chromium.send("Runtime.enable", Map.of());
                chromium.send("Log.enable", Map.of());
                chromium.clearEvents();
                chromium.send("Page.navigate", Map.of("url", page));
                await().atMost(Duration.ofSeconds(30)).until(() -> statusSeen(chromium, page) != null);
                assertEquals(200, statusSeen(chromium, page), "the browser with credentials");

                // the chart has live points: a second's lateness needs two samples, so wait for them
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> chartPoints(chromium) > 0);
                JsonObject first = view(chromium);
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> view(chromium).get("polls").getAsInt()
                                >= first.get("polls").getAsInt() + 2);
                JsonObject second = view(chromium);

                assertTrue(second.get("timerPoints").getAsInt() > 0, second.toString());
                assertTrue(second.get("eventPoints").getAsInt() > 0, second.toString());
                assertTrue(second.get("fired").getAsDouble() > 0, "timers fire in the script host: " + second);
                assertTrue(second.get("time").getAsLong() > first.get("time").getAsLong(), second.toString());
                assertNotEquals(
                        first.get("timerLine").getAsString(),
                        second.get("timerLine").getAsString(),
                        "the lateness chart is redrawn with new data");
                assertTrue(second.get("swapRows").getAsInt() >= 1, "the engines' start-up swaps: " + second);
                assertTrue(second.get("selector").getAsString().contains("nio-1"), second.toString());
                assertTrue(second.get("status").getAsString().startsWith("updated"), second.toString());

                List<Integer> dataStatuses = new ArrayList<>();
                for (JsonObject response : chromium.events("Network.responseReceived")) {
                    JsonObject r = response.getAsJsonObject("response");
                    if (r.get("url").getAsString().endsWith("/rouse/data.json")) {
                        dataStatuses.add(r.get("status").getAsInt());
                    }
                }
                assertTrue(dataStatuses.size() >= 3, dataStatuses.toString());
                assertTrue(dataStatuses.stream().allMatch(s -> s == 200), dataStatuses.toString());
                assertEquals(List.of(), chromium.errors(), "the page's console errors");
                chromium.evaluate("console.error('rouse-probe')"); // the error collector itself works
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> chromium.errors().toString().contains("rouse-probe"));
            }
            assertFalse(runtime.output().contains(PASSWORD), "the password is printed:\n" + runtime.output());
            assertEquals(0, runtime.stop());
        }
    }

    @Test
    void onANonLoopbackAddressTheConsoleStartsOnlyWithAPasswordOtherThanAdmin() throws Exception {
        Path runtimeJar = runtimeJar();
        int port = freePort();

        // default password: refused, and nothing listens; --check still passes (the server bundles are off on purpose)
        Process refused = new ProcessBuilder(
                        javaBinary(),
                        "-jar",
                        runtimeJar.toString(),
                        "--check",
                        "--conf=" + conf(false),
                        "--web-host=0.0.0.0",
                        "--web-port=" + port)
                .directory(runtimeJar.getParent().toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(refused.waitFor(120, TimeUnit.SECONDS), output);
        assertEquals(0, refused.exitValue(), output);
        List<String> lines = output.lines()
                .filter(l -> l.startsWith("[rouse] web console NOT started"))
                .toList();
        assertEquals(1, lines.size(), output);
        assertTrue(lines.get(0).contains("0.0.0.0:" + port + " is not a loopback address"), lines.get(0));
        assertTrue(lines.get(0).contains("password is the default"), lines.get(0));
        assertTrue(output.contains("[rouse] check passed"), output);
        assertFalse(output.contains("Started Jetty"), output);

        // a configured password: the console starts on the wildcard address (reached here through loopback)
        try (ForkedRuntime runtime =
                new ForkedRuntime(runtimeJar, "--conf=" + conf(true), "--web-host=0.0.0.0", "--web-port=" + port)) {
            String data = "http://127.0.0.1:" + port + "/system/console/rouse/data.json";
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> status(data, USER + ":" + PASSWORD) == 200);
            assertEquals(401, status(data, null));
            assertTrue(runtime.output().contains("web console: http://0.0.0.0:" + port), runtime.output());
            assertFalse(runtime.output().contains(PASSWORD), runtime.output());
            assertEquals(0, runtime.stop());
        }
        assertThrows(ConnectException.class, port);
    }

    /** Nothing listens on {@code port} any more (the runtime stopped). */
    private static void assertThrows(Class<? extends IOException> expected, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            throw new AssertionError("port " + port + " still answers");
        } catch (IOException e) {
            assertTrue(expected.isInstance(e), e.toString());
        }
    }

    /** What the page shows now, read from its DOM and its poll state. */
    private static JsonObject view(HeadlessChromium chromium) {
        return JsonParser.parseString(chromium.evaluate("(() => {"
                                + " const c = window.rouseConsole || {polls: 0, last: null};"
                                + " const line = " + TIMER_POINTS + ";"
                                + " const text = id => (document.getElementById(id) || {textContent: ''}).textContent;"
                                + " return JSON.stringify({"
                                + " polls: c.polls,"
                                + " time: c.last ? c.last.time : 0,"
                                + " timerPoints: line ? +line.getAttribute('data-points') : 0,"
                                + " timerLine: line ? line.getAttribute('points') : '',"
                                + " eventPoints: Math.max(0, ...[...document.querySelectorAll("
                                + "'#rouse-events-chart polyline')].map(p => +p.getAttribute('data-points'))),"
                                + " fired: c.last && c.last.services.timer ? c.last.services.timer.rates.fired || 0 : 0,"
                                + " swapRows: document.querySelectorAll('#rouse-swap-rows tr').length,"
                                + " selector: text('rouse-selector-figures'),"
                                + " status: text('rouse-status') }); })()")
                        .getAsString())
                .getAsJsonObject();
    }

    private static int chartPoints(HeadlessChromium chromium) {
        return view(chromium).get("timerPoints").getAsInt();
    }

    /** The HTTP status of the last response the browser received for {@code url}, or null. */
    private static Integer statusSeen(HeadlessChromium chromium, String url) {
        Integer status = null;
        for (JsonObject response : chromium.events("Network.responseReceived")) {
            JsonObject r = response.getAsJsonObject("response");
            if (r.get("url").getAsString().equals(url)) {
                status = r.get("status").getAsInt();
            }
        }
        return status;
    }

    /** The status of a GET of {@code url}, with HTTP Basic {@code user:password} unless null. */
    private int status(String url, String userPassword) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (userPassword != null) {
            request.header(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(userPassword.getBytes(StandardCharsets.UTF_8)));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private Path runtimeJar() throws IOException {
        Path built = Path.of(System.getProperty("rouse.runtime.jar", "target/rouse-runtime.jar"));
        assertTrue(Files.isRegularFile(built), "runtime jar not built: " + built.toAbsolutePath());
        Path home = Files.createDirectories(temp.resolve("home"));
        Path jar = home.resolve("rouse-runtime.jar");
        return Files.exists(jar) ? jar : Files.copy(built, jar);
    }

    /** A conf directory: a small script host, RESP on a free port and, if {@code password}, the console's user. */
    private Path conf(boolean password) throws IOException {
        Path conf = Files.createDirectories(temp.resolve(password ? "conf-password" : "conf-default"));
        Files.writeString(conf.resolve("org.rouse.examples.resp.cfg"), "port = 0\n");
        Files.writeString(conf.resolve("org.rouse.examples.scripts.cfg"), "scripts = 50\nreport.interval.s = 3600\n");
        if (password) {
            Files.writeString(
                    conf.resolve(WebConsole.PID + ".cfg"), "username = " + USER + "\npassword = " + PASSWORD + "\n");
        }
        return conf;
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
