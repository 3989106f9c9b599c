package org.rouse.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.function.Function;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

/**
 * Calls OSGi services whose API classes the launcher does not share with the framework (ConfigurationAdmin,
 * ServiceComponentRuntime), and reads their DTOs, through reflection.
 *
 * <p>Implementation notes: the launcher's class loader must not hold its own copy of the service API (it would be a
 * different class from the bundles' one). So methods are looked up on the API interface as the registering bundle
 * loads it ({@code ref.getBundle().loadClass(name)}), never on the implementation class, which may not be public.
 * DTO fields are public fields of public classes and are read with {@link Class#getField}.
 */
final class ServiceReflection {

    private final Object service;
    private final ServiceReference<?> ref;
    private final String interfaceName;

    private ServiceReflection(Object service, ServiceReference<?> ref, String interfaceName) {
        this.service = service;
        this.ref = ref;
        this.interfaceName = interfaceName;
    }

    /**
     * Runs {@code action} with the service registered under {@code interfaceName}, or returns {@code null} when none
     * is registered. The service is released afterwards.
     */
    static <T> T withService(BundleContext ctx, String interfaceName, Function<ServiceReflection, T> action) {
        ServiceReference<?> ref = ctx.getServiceReference(interfaceName);
        if (ref == null) {
            return null;
        }
        Object service = ctx.getService(ref);
        if (service == null) {
            return null;
        }
        try {
            return action.apply(new ServiceReflection(service, ref, interfaceName));
        } finally {
            ctx.ungetService(ref);
        }
    }

    /** Calls {@code interfaceName.methodName(args)} on the service (the first public method with that arity). */
    Object call(String methodName, Object... args) {
        return invoke(service, apiClass(interfaceName), methodName, args);
    }

    /** Calls a method of an object the service returned, through the API type {@code apiName}. */
    Object callOn(Object target, String apiName, String methodName, Object... args) {
        return invoke(target, apiClass(apiName), methodName, args);
    }

    /** Reads a public field of a DTO, or {@code null} if this DTO version has no such field. */
    static Object field(Object dto, String name) {
        try {
            return dto.getClass().getField(name).get(dto);
        } catch (NoSuchFieldException e) {
            return null;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + dto.getClass().getName() + "." + name, e);
        }
    }

    private Class<?> apiClass(String name) {
        try {
            return ref.getBundle().loadClass(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(
                    "bundle " + ref.getBundle().getSymbolicName() + " cannot load its API type " + name, e);
        }
    }

    private static Object invoke(Object target, Class<?> api, String methodName, Object... args) {
        for (Method method : api.getMethods()) {
            if (method.getName().equals(methodName) && method.getParameterCount() == args.length) {
                try {
                    return method.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw new IllegalStateException(
                            api.getSimpleName() + "." + methodName + " failed: " + e.getCause(), e.getCause());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot call " + api.getName() + "." + methodName, e);
                }
            }
        }
        throw new IllegalStateException(
                api.getName() + " has no method " + methodName + " with " + args.length + " parameter(s)");
    }
}
