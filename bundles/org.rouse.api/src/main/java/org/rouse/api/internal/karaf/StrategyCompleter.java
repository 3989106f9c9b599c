package org.rouse.api.internal.karaf;

import java.util.List;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.CommandLine;
import org.apache.karaf.shell.api.console.Completer;
import org.apache.karaf.shell.api.console.Session;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rouse.api.internal.lock.LockCommands;

/**
 * Completes the strategies the active lock engine offers ({@link LockCommands#offeredStrategies()}), read at each
 * TAB.
 */
@Service
public final class StrategyCompleter implements Completer {

    /** Injected by Karaf's shell. */
    @Reference
    private LockCommands commands;

    @Override
    public int complete(Session session, CommandLine commandLine, List<String> candidates) {
        return new StringsCompleter(commands.offeredStrategies()).complete(session, commandLine, candidates);
    }
}
