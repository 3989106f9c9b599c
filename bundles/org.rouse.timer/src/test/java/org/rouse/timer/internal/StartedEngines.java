package org.rouse.timer.internal;

import java.util.ArrayList;
import java.util.List;
import org.rouse.api.internal.timer.BundleTimerView;
import org.rouse.api.internal.timer.TimerFrontCore;

/**
 * The wheel engines a test started and the fronts it put before them, stopped after the test: each front's view is
 * released and the front emptied before the engines shut down, as a bundle's release precedes the engine's
 * deactivation in the container.
 */
final class StartedEngines {

    private final List<WheelTimerEngine> engines = new ArrayList<>();
    private final List<Runnable> releases = new ArrayList<>();

    /** Keeps {@code engine} to shut down in {@link #stopAll()}. */
    WheelTimerEngine add(WheelTimerEngine engine) {
        engines.add(engine);
        return engine;
    }

    /** A real front on {@code engine} and a view of it for a bundle named {@code bundle}. */
    BundleTimerView front(WheelTimerEngine engine, String bundle) {
        TimerFrontCore core = new TimerFrontCore();
        core.swapTo(engine);
        BundleTimerView view = core.newView(bundle);
        releases.add(() -> {
            core.release(view);
            core.swapTo(null);
        });
        return view;
    }

    /** Releases every view, then shuts every engine down. */
    void stopAll() {
        releases.forEach(Runnable::run);
        releases.clear();
        engines.forEach(WheelTimerEngine::shutdown);
        engines.clear();
    }
}
