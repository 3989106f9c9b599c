package org.rouse.runtime;

import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real headless Chromium ({@code /usr/bin/chromium}, Debian package {@code chromium}) driven through the Chrome
 * DevTools protocol over {@link WebSocket}: navigate, evaluate JavaScript in the page, and collect the page's console
 * errors, uncaught exceptions and HTTP responses.
 *
 * <p>Implementation notes: Chromium is started with {@code --remote-debugging-port=0} and a fresh profile; it writes
 * the port it chose to {@code DevToolsActivePort} in the profile, and {@code /json/list} names the first page's
 * socket. Protocol replies are matched to requests by id; events are appended to {@link #events} by the socket's
 * listener thread. Fails (never skips) when Chromium is not installed.
 */
final class HeadlessChromium implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getProperty("rouse.chromium", "/usr/bin/chromium"));

    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    /** Replies by request id; completed by the listener thread. */
    private final Map<Integer, CompletableFuture<JsonObject>> replies = new ConcurrentHashMap<>();
    /** Every protocol event received, in order; appended by the listener thread. */
    final List<JsonObject> events = new CopyOnWriteArrayList<>();

    HeadlessChromium(Path profile) throws Exception {
        if (!Files.isExecutable(CHROMIUM)) {
            throw new AssertionError(CHROMIUM + " is missing: install it with 'apt-get install -y chromium"
                    + " chromium-driver' (.ci/run does this before the build)");
        }
        Files.createDirectories(profile);
        process = new ProcessBuilder(
                        CHROMIUM.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-quic",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--user-data-dir=" + profile,
                        "--remote-debugging-address=127.0.0.1",
                        "--remote-debugging-port=0",
                        "about:blank")
                .redirectErrorStream(true)
                .redirectOutput(profile.resolveSibling("chromium.log").toFile())
                .start();
        Path portFile = profile.resolve("DevToolsActivePort");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> Files.isRegularFile(portFile)
                        && Files.readAllLines(portFile).size() >= 2);
        int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
        HttpClient http = HttpClient.newHttpClient();
        String pageSocket = null;
        for (JsonElement target : JsonParser.parseString(http.send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body())
                .getAsJsonArray()) {
            if (target.getAsJsonObject().get("type").getAsString().equals("page")) {
                pageSocket =
                        target.getAsJsonObject().get("webSocketDebuggerUrl").getAsString();
                break;
            }
        }
        if (pageSocket == null) {
            throw new AssertionError("Chromium shows no page target");
        }
        socket = http.newWebSocketBuilder()
                .buildAsync(URI.create(pageSocket), new Listener())
                .get(30, TimeUnit.SECONDS);
    }

    /** Sends one protocol command and waits for its result; a protocol error fails the test. */
    JsonObject send(String method, Map<String, Object> params) {
        int id = ids.incrementAndGet();
        JsonObject message = new JsonObject();
        message.addProperty("id", id);
        message.addProperty("method", method);
        message.add("params", new com.google.gson.Gson().toJsonTree(params));
        CompletableFuture<JsonObject> reply = new CompletableFuture<>();
        replies.put(id, reply);
        socket.sendText(message.toString(), true).join();
        JsonObject answer;
        try {
            answer = reply.get(REPLY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("no reply to " + method, e);
        }
        if (answer.has("error")) {
            throw new AssertionError(method + " failed: " + answer.get("error"));
        }
        return answer.getAsJsonObject("result");
    }

    /** Evaluates {@code expression} in the page and returns its value (JSON-serializable results only). */
    JsonElement evaluate(String expression) {
        JsonObject result =
                send("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
        if (result.has("exceptionDetails")) {
            throw new AssertionError("page threw on " + expression + ": " + result.get("exceptionDetails"));
        }
        JsonObject value = result.getAsJsonObject("result");
        return value.has("value") ? value.get("value") : null;
    }

    /** The events named {@code method} received so far. */
    List<JsonObject> events(String method) {
        List<JsonObject> found = new ArrayList<>();
        for (JsonObject event : events) {
            if (event.get("method").getAsString().equals(method)) {
                found.add(event.getAsJsonObject("params"));
            }
        }
        return found;
    }

    /** The page's console errors, uncaught exceptions and error log entries received so far, as text. */
    List<String> errors() {
        List<String> errors = new ArrayList<>();
        for (JsonObject call : events("Runtime.consoleAPICalled")) {
            if (call.get("type").getAsString().equals("error")) {
                errors.add("console.error " + call.get("args"));
            }
        }
        for (JsonObject thrown : events("Runtime.exceptionThrown")) {
            errors.add("exception " + thrown.get("exceptionDetails"));
        }
        for (JsonObject entry : events("Log.entryAdded")) {
            JsonObject e = entry.getAsJsonObject("entry");
            if (e.get("level").getAsString().equals("error")) {
                errors.add("log " + e.get("text").getAsString() + " " + (e.has("url") ? e.get("url") : ""));
            }
        }
        return errors;
    }

    /** Forgets the events received so far. */
    void clearEvents() {
        events.clear();
    }

    static JsonArray array(JsonElement element) {
        return element == null || element.isJsonNull() ? new JsonArray() : element.getAsJsonArray();
    }

    @Override
    public void close() {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        } catch (RuntimeException e) {
            // the browser is going away anyway
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                JsonObject message = JsonParser.parseString(partial.toString()).getAsJsonObject();
                partial.setLength(0);
                if (message.has("id")) {
                    CompletableFuture<JsonObject> reply =
                            replies.remove(message.get("id").getAsInt());
                    if (reply != null) {
                        reply.complete(message);
                    }
                } else if (message.has("method")) {
                    events.add(message);
                }
            }
            webSocket.request(1);
            return null;
        }
    }
}
