package org.rouse.api.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.lock.LockCommands;

/**
 * {@code rouse:locks [n | reset]} in Karaf's shell: {@link LockCommands#locks()} or
 * {@link LockCommands#locks(String)}.
 */
@Service
@Command(scope = GogoCommands.SCOPE, name = "locks", description = LockCommands.LOCKS_HELP)
public final class LocksAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private LockCommands commands;

    /** The optional count or {@code reset}, set by Karaf's parser; parsed by the command. */
    @Argument(name = "n | reset", description = LockCommands.LOCKS_ARGUMENT_HELP)
    @Completion(value = StringsCompleter.class, values = "reset")
    private String arg;

    @Override
    public Object execute() {
        if (arg == null) {
            commands.locks();
        } else {
            commands.locks(arg);
        }
        return null;
    }
}
