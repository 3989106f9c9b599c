package org.rouse.api.internal;

import java.util.function.Consumer;
import java.util.function.Function;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceFactory;
import org.osgi.framework.ServiceRegistration;

/**
 * Registers a service as one view per consuming bundle, the way every Rouse front hands out its service.
 *
 * <p>The framework calls {@code getService} once per consuming bundle and {@code ungetService} when that bundle
 * stops or releases the service, and also for every bundle still holding it when the registration is unregistered.
 * So {@code close} runs exactly once per view, and a consumer that stops leaves nothing behind.
 *
 * @param <S> the service type
 * @param <V> the view type
 */
public final class BundleViews<S, V extends S> implements ServiceFactory<S> {

    private final Function<String, V> open;
    private final Consumer<V> close;

    private BundleViews(Function<String, V> open, Consumer<V> close) {
        this.open = open;
        this.close = close;
    }

    /**
     * Registers {@code type}; {@code open} makes a view for a consumer (named {@code "symbolic.name[id]"} for logs),
     * {@code close} releases it.
     */
    public static <S, V extends S> ServiceRegistration<S> register(
            BundleContext context, Class<S> type, Function<String, V> open, Consumer<V> close) {
        return context.registerService(type, new BundleViews<>(open, close), null);
    }

    @Override
    public S getService(Bundle bundle, ServiceRegistration<S> registration) {
        return open.apply(bundle.getSymbolicName() + "[" + bundle.getBundleId() + "]");
    }

    @Override
    @SuppressWarnings("unchecked") // the framework hands back exactly the object getService returned
    public void ungetService(Bundle bundle, ServiceRegistration<S> registration, S view) {
        close.accept((V) view);
    }
}
