package org.rouse.api.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.selector.SelectorCommands;

/**
 * {@code rouse:selector [reset]} in Karaf's shell: {@link SelectorCommands#selector()} or
 * {@link SelectorCommands#selector(String)}.
 */
@Service
@Command(scope = GogoCommands.SCOPE, name = "selector", description = SelectorCommands.SELECTOR_RESET_HELP)
public final class SelectorAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private SelectorCommands commands;

    /** The optional argument, set by Karaf's parser. */
    @Argument(name = "reset", description = SelectorCommands.RESET_ARGUMENT_HELP)
    @Completion(value = StringsCompleter.class, values = "reset")
    private String action;

    @Override
    public Object execute() {
        if (action == null) {
            commands.selector();
        } else {
            commands.selector(action);
        }
        return null;
    }
}
