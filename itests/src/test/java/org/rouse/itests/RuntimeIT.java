package org.rouse.itests;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.metatype.MetaTypeInformation;
import org.osgi.service.metatype.MetaTypeService;
import org.osgi.service.metatype.ObjectClassDefinition;
import org.rouse.lock.LockService;
import org.rouse.selector.SelectorService;
import org.rouse.timer.TimerService;

/** Every Rouse bundle starts, every component activates, every service is injectable and every PID is described. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class RuntimeIT extends RouseTestSupport {

    @Inject
    TimerService timers;

    @Inject
    SelectorService selector;

    @Inject
    LockService locks;

    @Inject
    MetaTypeService metaType;

    @Test
    public void everyRouseBundleIsActive() {
        for (String name : RouseOptions.ROUSE_BUNDLES) {
            assertEquals(name + " state", Bundle.ACTIVE, bundle(name).getState());
        }
    }

    @Test
    public void everyRouseComponentIsActive() {
        List<ComponentDescriptionDTO> components = rouseComponents();
        assertFalse("Rouse declares components", components.isEmpty());
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (ComponentDescriptionDTO component : rouseComponents()) {
                List<ComponentConfigurationDTO> instances = List.copyOf(scr.getComponentConfigurationDTOs(component));
                assertFalse(component.name + " has no configuration", instances.isEmpty());
                // the health checks are delayed: registered, and activated only by Felix HC's executor
                int expected = component.name.endsWith("HealthCheck")
                        ? ComponentConfigurationDTO.SATISFIED
                        : ComponentConfigurationDTO.ACTIVE;
                for (ComponentConfigurationDTO instance : instances) {
                    assertEquals(component.name + " state", expected, instance.state);
                }
            }
        });
    }

    /**
     * This framework has no Felix Health Checks: the API bundle resolves with its optional import of
     * {@code org.apache.felix.hc.api} unwired, the three checks wait SATISFIED with their service registered by name
     * (nobody here can use it, so SCR never loads their classes), and the services work
     * ({@link #eachServiceIsInjectedAndWorks}). With Felix HC: {@link HealthChecksIT}.
     */
    @Test
    public void withoutFelixHealthChecksTheChecksWaitAndRouseRuns() throws Exception {
        Bundle api = bundle("org.rouse.api");
        assertEquals(Bundle.ACTIVE, api.getState());
        assertTrue(
                "no Felix HC bundle in this framework",
                Arrays.stream(context.getBundles())
                        .noneMatch(
                                b -> String.valueOf(b.getSymbolicName()).startsWith("org.apache.felix.healthcheck")));
        boolean wired =
                api.adapt(org.osgi.framework.wiring.BundleWiring.class).getRequiredWires("osgi.wiring.package").stream()
                        .anyMatch(w -> "org.apache.felix.hc.api"
                                .equals(w.getCapability().getAttributes().get("osgi.wiring.package")));
        assertFalse("org.apache.felix.hc.api is not wired", wired);
        List<String> checks = List.of(
                "org.rouse.api.internal.timer.TimerHealthCheck",
                "org.rouse.api.internal.selector.SelectorHealthCheck",
                "org.rouse.api.internal.lock.LockHealthCheck");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (String name : checks) {
                List<ComponentConfigurationDTO> instances = configurations(name);
                assertEquals(name, 1, instances.size());
                assertEquals(name + " state", ComponentConfigurationDTO.SATISFIED, instances.get(0).state);
            }
        });
        assertEquals(
                3, context.getAllServiceReferences("org.apache.felix.hc.api.HealthCheck", "(hc.tags=rouse)").length);
    }

    @Test
    public void eachServiceIsInjectedAndWorks() {
        assertNotNull(timers.owner("it").schedule(Duration.ofHours(1), e -> {}));
        assertTrue(timers.owner("it").pendingCount() >= 1);
        assertNotNull(timers.statistics().engine());
        assertTrue(selector.statistics().engine().startsWith("nio"));
        java.util.concurrent.locks.Lock lock = locks.lock("it");
        lock.lock();
        try {
            assertTrue(locks.lock("it").tryLock()); // reentrant, and the same name gives the same lock
            lock.unlock();
        } finally {
            lock.unlock();
        }
        assertTrue(locks.strategies().contains("jdk"));
    }

    /**
     * Pax Exam installs no servlet API, so the API bundle's optional javax.servlet import stays unwired: the console
     * component is ACTIVE (checked above with every component) and registers no Web Console page.
     */
    @Test
    public void withoutAServletApiTheConsoleRegistersNoPage() {
        Bundle api = bundle("org.rouse.api");
        List<String> registered = Arrays.stream(api.getRegisteredServices())
                .flatMap(ref -> Arrays.stream((String[]) ref.getProperty("objectClass")))
                .toList();
        assertTrue(registered.toString(), registered.contains("org.rouse.api.internal.console.ConsoleSource"));
        assertFalse(registered.toString(), registered.contains("javax.servlet.Servlet"));
        assertTrue(
                rouseComponents().stream().anyMatch(c -> c.name.equals("org.rouse.api.internal.console.RouseConsole")));
    }

    @Test
    public void metatypeDescribesEveryConfiguration() {
        Set<String> described = RouseOptions.ROUSE_BUNDLES.stream()
                .map(this::bundle)
                .map(metaType::getMetaTypeInformation)
                .filter(info -> info != null)
                .flatMap(info -> Arrays.stream(info.getPids()))
                .collect(Collectors.toSet());
        for (ComponentDescriptionDTO component : rouseComponents()) {
            if ("ignore".equals(component.configurationPolicy)) {
                continue; // takes no configuration (RouseConsole), so there is nothing to describe
            }
            for (String pid : component.configurationPid) {
                assertTrue(pid + " of " + component.name + " has no Metatype description", described.contains(pid));
                MetaTypeInformation info = metaType.getMetaTypeInformation(bundle(component.bundle.symbolicName));
                ObjectClassDefinition ocd = info.getObjectClassDefinition(pid, null);
                assertTrue(pid + " attributes", ocd.getAttributeDefinitions(ObjectClassDefinition.ALL).length > 0);
            }
        }
    }
}
