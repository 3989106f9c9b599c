package org.rouse.itests;

import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.inject.Inject;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;

/** Shared set-up and helpers of the integration tests. */
public abstract class RouseTestSupport {

    @Inject
    protected BundleContext context;

    @Inject
    protected ServiceComponentRuntime scr;

    @Configuration
    public Option[] config() {
        return new Option[] {RouseOptions.all()};
    }

    protected Bundle bundle(String symbolicName) {
        return Arrays.stream(context.getBundles())
                .filter(b -> symbolicName.equals(b.getSymbolicName()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("bundle not installed: " + symbolicName));
    }

    /** Every component description of the Rouse bundles. */
    protected List<ComponentDescriptionDTO> rouseComponents() {
        List<ComponentDescriptionDTO> result = new ArrayList<>();
        for (String name : RouseOptions.ROUSE_BUNDLES) {
            result.addAll(scr.getComponentDescriptionDTOs(bundle(name)));
        }
        return result;
    }

    /** The configurations (instances) of one component, by its name. */
    protected List<ComponentConfigurationDTO> configurations(String componentName) {
        for (ComponentDescriptionDTO description : rouseComponents()) {
            if (description.name.equals(componentName)) {
                return new ArrayList<>(scr.getComponentConfigurationDTOs(description));
            }
        }
        throw new AssertionError("no component " + componentName);
    }

    /** Updates {@code bundle} from its jar and refreshes it, as an operator replacing a provider would. */
    protected void updateFromJar(Bundle bundle) throws Exception {
        try (InputStream in =
                Files.newInputStream(RouseOptions.jar(bundle.getSymbolicName()).toPath())) {
            bundle.update(in);
        }
        refresh(bundle);
    }

    protected void refresh(Bundle bundle) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        context.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(bundle), event -> {
            if (event.getType() == FrameworkEvent.PACKAGES_REFRESHED) {
                done.countDown();
            }
        });
        assertTrue("refresh timed out", done.await(30, TimeUnit.SECONDS));
    }
}
