package org.rouse.api.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rouse.api.internal.GogoCommands;
import org.rouse.api.internal.lock.LockCommands;

/**
 * {@code rouse:strategy [lock] <strategy>} in Karaf's shell: {@link LockCommands#strategy()},
 * {@link LockCommands#strategy(String)} or {@link LockCommands#strategy(String, String)} by the number of arguments,
 * as in Gogo. The first argument completes to the offered strategies and the live locks' names, the second to the
 * offered strategies. Karaf's command ACL ({@code etc/org.apache.karaf.command.acl.rouse.cfg}) decides who may run it.
 */
@Service
@Command(
        scope = GogoCommands.SCOPE,
        name = "strategy",
        description = LockCommands.STRATEGY_HELP,
        detailedDescription = LockCommands.STRATEGY_FORMS_HELP)
public final class StrategyAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private LockCommands commands;

    /** A strategy (one argument) or a lock (two arguments), set by Karaf's parser. */
    @Argument(
            index = 0,
            name = "lock | strategy",
            description = "alone: " + LockCommands.STRATEGY_ARGUMENT_HELP + "; followed by a strategy: "
                    + LockCommands.LOCK_ARGUMENT_HELP)
    @Completion(LockOrStrategyCompleter.class)
    private String first;

    /** The strategy for the lock named first, set by Karaf's parser. */
    @Argument(index = 1, name = "strategy", description = LockCommands.STRATEGY_ARGUMENT_HELP)
    @Completion(StrategyCompleter.class)
    private String second;

    @Override
    public Object execute() throws Exception {
        if (first == null) {
            commands.strategy();
        } else if (second == null) {
            commands.strategy(first);
        } else {
            commands.strategy(first, second);
        }
        return null;
    }
}
