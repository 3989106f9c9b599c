package org.rouse.api.internal.karaf;

import java.util.List;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.CommandLine;
import org.apache.karaf.shell.api.console.Completer;
import org.apache.karaf.shell.api.console.Session;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rouse.api.internal.selector.SelectorCommands;

/** Completes a consuming bundle of the selector service ({@link SelectorCommands#consumers()}), read at each TAB. */
@Service
public final class ConsumerCompleter implements Completer {

    /** Injected by Karaf's shell. */
    @Reference
    private SelectorCommands commands;

    @Override
    public int complete(Session session, CommandLine commandLine, List<String> candidates) {
        return new StringsCompleter(commands.consumers()).complete(session, commandLine, candidates);
    }
}
