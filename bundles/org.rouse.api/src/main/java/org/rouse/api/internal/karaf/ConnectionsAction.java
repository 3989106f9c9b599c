package org.rouse.api.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.selector.SelectorCommands;

/**
 * {@code rouse:connections [bundle]} in Karaf's shell: {@link SelectorCommands#connections()} or
 * {@link SelectorCommands#connections(String)}; the bundle completes to the consuming bundles.
 */
@Service
@Command(scope = GogoCommands.SCOPE, name = "connections", description = SelectorCommands.CONNECTIONS_HELP)
public final class ConnectionsAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private SelectorCommands commands;

    /** The optional consuming bundle, set by Karaf's parser. */
    @Argument(name = "bundle", description = SelectorCommands.BUNDLE_ARGUMENT_HELP)
    @Completion(ConsumerCompleter.class)
    private String bundle;

    @Override
    public Object execute() {
        if (bundle == null) {
            commands.connections();
        } else {
            commands.connections(bundle);
        }
        return null;
    }
}
