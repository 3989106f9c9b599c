package org.rouse.api.internal.karaf;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.CommandLine;
import org.apache.karaf.shell.api.console.Completer;
import org.apache.karaf.shell.api.console.Session;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rouse.api.internal.lock.LockCommands;

/**
 * Completes the first argument of {@code rouse:strategy}: a strategy the active lock engine offers or the name of a
 * live lock ({@link LockCommands#offeredStrategies()}, {@link LockCommands#lockNames()}), read at each TAB.
 */
@Service
public final class LockOrStrategyCompleter implements Completer {

    /** Injected by Karaf's shell. */
    @Reference
    private LockCommands commands;

    @Override
    public int complete(Session session, CommandLine commandLine, List<String> candidates) {
        Set<String> values = new TreeSet<>(commands.offeredStrategies());
        values.addAll(commands.lockNames());
        return new StringsCompleter(values).complete(session, commandLine, candidates);
    }
}
