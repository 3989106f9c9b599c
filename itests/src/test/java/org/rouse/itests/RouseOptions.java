package org.rouse.itests;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.composite;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.File;
import java.util.List;
import org.ops4j.pax.exam.Option;

/** The runtime every integration test runs in: real Felix, SCR, ConfigAdmin, Metatype, SLF4J and all Rouse bundles. */
public final class RouseOptions {

    /** Symbolic names (and jar names) of the project's bundles, in start order. */
    public static final List<String> ROUSE_BUNDLES = List.of(
            "org.rouse.api",
            "org.rouse.timer",
            "org.rouse.selector",
            "org.rouse.lock",
            "org.rouse.jobs",
            "org.rouse.examples.scripts",
            "org.rouse.examples.resp");

    private RouseOptions() {}

    public static Option all() {
        return composite(platform(), rouseBundles(), junitBundles(), testSupport());
    }

    /** Felix services and SLF4J 2 (slf4j-api finds its provider with java.util.ServiceLoader, which Aries SPI Fly makes work across bundles). */
    static Option platform() {
        return composite(
                systemProperty("org.slf4j.simpleLogger.defaultLogLevel").value("info"),
                systemProperty("org.slf4j.simpleLogger.showDateTime").value("true"),
                mavenBundle("org.ow2.asm", "asm").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm-tree").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm-analysis").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm-commons").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm-util").versionAsInProject().startLevel(1),
                mavenBundle("org.apache.aries.spifly", "org.apache.aries.spifly.dynamic.bundle")
                        .versionAsInProject()
                        .startLevel(1),
                mavenBundle("org.slf4j", "slf4j-simple").versionAsInProject().startLevel(1),
                mavenBundle("org.slf4j", "slf4j-api").versionAsInProject().startLevel(1),
                mavenBundle("org.osgi", "org.osgi.util.function")
                        .versionAsInProject()
                        .startLevel(2),
                mavenBundle("org.osgi", "org.osgi.util.promise")
                        .versionAsInProject()
                        .startLevel(2),
                mavenBundle("org.osgi", "org.osgi.service.log")
                        .versionAsInProject()
                        .startLevel(2),
                mavenBundle("org.osgi", "org.osgi.service.component")
                        .versionAsInProject()
                        .startLevel(2),
                // the Gogo runtime (no shell): the API bundle's optional import of its command package wires to it
                mavenBundle("org.apache.felix", "org.apache.felix.gogo.runtime")
                        .versionAsInProject()
                        .startLevel(2),
                mavenBundle("org.apache.felix", "org.apache.felix.configadmin")
                        .versionAsInProject()
                        .startLevel(3),
                mavenBundle("org.apache.felix", "org.apache.felix.metatype")
                        .versionAsInProject()
                        .startLevel(3),
                mavenBundle("org.apache.felix", "org.apache.felix.scr")
                        .versionAsInProject()
                        .startLevel(3));
    }

    /** The project's bundles from target/bundles (file: URLs: works on a clean checkout without mvn install). */
    static Option rouseBundles() {
        return composite(ROUSE_BUNDLES.stream()
                .map(name -> bundle(jar(name).toURI().toString()).startLevel(4))
                .toArray(Option[]::new));
    }

    /** The jar a Rouse bundle was built into. */
    public static File jar(String symbolicName) {
        return new File(System.getProperty("rouse.bundles.dir", "target/bundles"), symbolicName + ".jar");
    }

    /**
     * Felix Health Checks API and core 2.0.14, with the API bundles whose packages HC core imports without
     * {@code resolution:=optional} (javax Servlet, Http Service, Http Whiteboard, Event Admin): no web server. At start
     * level 3, so the API bundle (level 4) resolves with its optional import of {@code org.apache.felix.hc.api} wired.
     */
    static Option healthChecks() {
        return composite(
                mavenBundle("org.apache.felix", "org.apache.felix.http.servlet-api")
                        .versionAsInProject()
                        .startLevel(3),
                mavenBundle("org.osgi", "org.osgi.service.http")
                        .versionAsInProject()
                        .startLevel(3),
                mavenBundle("org.osgi", "org.osgi.service.http.whiteboard")
                        .versionAsInProject()
                        .startLevel(3),
                mavenBundle("org.osgi", "org.osgi.service.event")
                        .versionAsInProject()
                        .startLevel(3),
                mavenBundle("org.apache.felix", "org.apache.felix.healthcheck.api")
                        .versionAsInProject()
                        .startLevel(3),
                mavenBundle("org.apache.felix", "org.apache.felix.healthcheck.core")
                        .versionAsInProject()
                        .startLevel(3));
    }

    static Option testSupport() {
        return composite(
                mavenBundle("org.hamcrest", "hamcrest").versionAsInProject(),
                mavenBundle("org.awaitility", "awaitility").versionAsInProject());
    }
}
