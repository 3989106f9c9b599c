package org.rouse.api.internal.events;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.awaitility.Awaitility;

/** A live JFR recording of some Rouse events, collecting what it receives (tests only). */
public final class Recorded implements AutoCloseable {

    private final RecordingStream stream = new RecordingStream();
    private final List<RecordedEvent> events = new CopyOnWriteArrayList<>();

    /**
     * Starts recording {@code eventName} with the given settings ({@code name, value, name, value, ...}).
     */
    public Recorded(String eventName, String... settings) {
        var enabled = stream.enable(eventName);
        for (int i = 0; i + 1 < settings.length; i += 2) {
            enabled.with(settings[i], settings[i + 1]);
        }
        stream.setMaxAge(Duration.ofMinutes(1));
        stream.onEvent(eventName, events::add);
        stream.startAsync();
    }

    /** Waits (up to 20 s, JFR flushes about once a second) until an event matches, and returns it. */
    public RecordedEvent await(Predicate<RecordedEvent> matching) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> events.stream().filter(matching).findFirst().orElse(null), e -> e != null);
    }

    /** Everything received so far. */
    public List<RecordedEvent> events() {
        return List.copyOf(events);
    }

    @Override
    public void close() {
        stream.close();
    }
}
