package org.rouse.api.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.timer.TimerCommands;

/**
 * {@code rouse:timers [reset]} in Karaf's shell: {@link TimerCommands#timers()} or
 * {@link TimerCommands#timers(String)}.
 */
@Service
@Command(scope = GogoCommands.SCOPE, name = "timers", description = TimerCommands.TIMERS_RESET_HELP)
public final class TimersAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private TimerCommands commands;

    /** The optional argument, set by Karaf's parser. */
    @Argument(name = "reset", description = TimerCommands.RESET_ARGUMENT_HELP)
    @Completion(value = StringsCompleter.class, values = "reset")
    private String action;

    @Override
    public Object execute() {
        if (action == null) {
            commands.timers();
        } else {
            commands.timers(action);
        }
        return null;
    }
}
