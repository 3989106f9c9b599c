package org.rouse.examples.resp.internal;

import org.rouse.selector.internal.EngineSettings;
import org.rouse.selector.internal.NioSelectorEngine;

/** Starts the real NIO selector engine outside OSGi for the RESP server's tests, through its public factory. */
final class TestEngines {

    private TestEngines() {}

    /** An engine whose select never times out: a missing wakeup shows as a test timeout. */
    static NioSelectorEngine start() {
        return NioSelectorEngine.started(EngineSettings.DEFAULTS.withPool(2, 16, 60));
    }

    static void stop(NioSelectorEngine engine) {
        NioSelectorEngine.stop(engine);
    }
}
