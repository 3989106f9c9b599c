package org.rouse.api.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.timer.TimerCommands;

/**
 * {@code rouse:running [n]} in Karaf's shell: {@link TimerCommands#running()} or
 * {@link TimerCommands#running(String)}.
 */
@Service
@Command(scope = GogoCommands.SCOPE, name = "running", description = TimerCommands.RUNNING_HELP)
public final class RunningAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private TimerCommands commands;

    /** The optional count, set by Karaf's parser; parsed by the command so a bad one gives the usage. */
    @Argument(name = "n", description = TimerCommands.RUNNING_N_HELP)
    private String n;

    @Override
    public Object execute() {
        if (n == null) {
            commands.running();
        } else {
            commands.running(n);
        }
        return null;
    }
}
