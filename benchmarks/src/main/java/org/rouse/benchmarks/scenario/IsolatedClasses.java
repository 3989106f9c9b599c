package org.rouse.benchmarks.scenario;

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A class loader that loads its own copy of the classes under some package prefixes (child first) and takes every
 * other class from the harness's loader, so that a variant made through it runs its own copies of those classes' code,
 * with JIT profiles of its own.
 *
 * <pre>{@code
 * IsolatedClasses loader = IsolatedClasses.of(
 *         "variant-0", List.of(Factory.class, LockFacade.class), "org.example.bench.", "org.rouse.api.");
 * // Factory.make(int, int, boolean) in the loader's own copy of Factory:
 * Variant v = loader.call(Variant.class, "org.example.bench.Factory", "make", 0, 16, false);
 * }</pre>
 *
 * <p>Why: the harness interleaves variants in one JVM, and HotSpot keeps one profile per method. Variants that share
 * code (one benchmark loop for every lock, one facade class for every Rouse strategy) share its call-site profiles,
 * so the JIT compiles each of them for all the others' receiver types at once: at 16 threads the Rouse facade's
 * lock and unlock, compiled for every strategy's primitive class, grew past the size C2 inlines into a caller
 * ({@code InlineSmallCode}), which no application running one strategy sees (docs/performance.md, "Profiles of their
 * own"). JMH forks a JVM per benchmark for the same reason; a loader per variant keeps the interleaved rounds, and with
 * them the same machine noise for every variant, while giving each variant the code a process running it alone would
 * have. Classes of the JDK, and the harness's own (the {@link Variant} interface the caller casts to, the measuring
 * tools), stay shared.
 */
public final class IsolatedClasses extends URLClassLoader {

    static {
        registerAsParallelCapable();
    }

    private final List<String> prefixes;

    private IsolatedClasses(String name, URL[] urls, ClassLoader parent, List<String> prefixes) {
        super(name, urls, parent);
        this.prefixes = List.copyOf(prefixes);
    }

    /**
     * A loader for the classes under {@code prefixes}, read from where the {@code located} classes were loaded from.
     * It stays open for the life of the JVM, as the classes it loads do (a harness run makes a few dozen).
     *
     * @param name the loader's name, as thread dumps and class-loader statistics show it (e.g. the variant's)
     * @param located one class from each jar or folder the isolated classes come from
     * @param prefixes package prefixes, e.g. {@code "org.rouse.api."}
     */
    public static IsolatedClasses of(String name, List<Class<?>> located, String... prefixes) {
        Set<URL> urls = new LinkedHashSet<>();
        for (Class<?> c : located) {
            CodeSource source = c.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                throw new IllegalStateException("no code source for " + c.getName());
            }
            urls.add(source.getLocation());
        }
        return new IsolatedClasses(
                name, urls.toArray(URL[]::new), IsolatedClasses.class.getClassLoader(), List.of(prefixes));
    }

    /**
     * Calls the public static method {@code method} of this loader's copy of {@code className}, whose parameters have
     * the types of {@code args}' classes as primitives where they are boxed (int, boolean) and as given otherwise.
     *
     * @return what it returned, cast to {@code type} (a class the harness's loader shares)
     */
    public <T> T call(Class<T> type, String className, String method, Object... args) {
        Class<?>[] parameters = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++) {
            parameters[i] = args[i] instanceof Integer
                    ? int.class
                    : args[i] instanceof Boolean ? boolean.class : args[i].getClass();
        }
        try {
            Object result = Class.forName(className, true, this)
                    .getMethod(method, parameters)
                    .invoke(null, args);
            return type.cast(result);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(className + "." + method + " failed", cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + className + "." + method, e);
        }
    }

    private boolean isolated(String name) {
        for (String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!isolated(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = findClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
