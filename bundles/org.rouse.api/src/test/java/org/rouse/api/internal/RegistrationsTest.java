package org.rouse.api.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegistrationsTest {

    @Test
    void undoesInReverseOrderOnce() {
        List<String> undone = new ArrayList<>();
        Registrations registrations = new Registrations();
        registrations.add(() -> undone.add("service"));
        registrations.add(() -> undone.add("commands"));
        registrations.add(() -> undone.add("health"));

        registrations.unregisterAll();
        registrations.unregisterAll();

        assertEquals(List.of("health", "commands", "service"), undone);
    }

    @Test
    void oneAlreadyGoneDoesNotKeepTheRestRegistered() {
        List<String> undone = new ArrayList<>();
        Registrations registrations = new Registrations();
        registrations.add(() -> undone.add("service"));
        registrations.add(() -> {
            throw new IllegalStateException("Service already unregistered.");
        });
        registrations.add(() -> undone.add("health"));

        registrations.unregisterAll();

        assertEquals(List.of("health", "service"), undone);
    }
}
