package org.rouse.api.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.lock.LockCommands;

/**
 * {@code rouse:contended [n]} in Karaf's shell: {@link LockCommands#contended()} or
 * {@link LockCommands#contended(String)}.
 */
@Service
@Command(scope = GogoCommands.SCOPE, name = "contended", description = LockCommands.CONTENDED_HELP)
public final class ContendedAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private LockCommands commands;

    /** The optional count, set by Karaf's parser; parsed by the command so a bad one gives the usage. */
    @Argument(name = "n", description = LockCommands.CONTENDED_N_HELP)
    private String n;

    @Override
    public Object execute() {
        if (n == null) {
            commands.contended();
        } else {
            commands.contended(n);
        }
        return null;
    }
}
