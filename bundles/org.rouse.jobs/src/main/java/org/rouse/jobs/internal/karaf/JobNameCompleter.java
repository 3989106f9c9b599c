package org.rouse.jobs.internal.karaf;

import java.util.List;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.CommandLine;
import org.apache.karaf.shell.api.console.Completer;
import org.apache.karaf.shell.api.console.Session;
import org.apache.karaf.shell.support.completers.StringsCompleter;
import org.rouse.jobs.internal.JobCommands;

/** Completes the name of a scheduled job ({@link JobCommands#names()}), read at each TAB. */
@Service
public final class JobNameCompleter implements Completer {

    /** Injected by Karaf's shell. */
    @Reference
    private JobCommands commands;

    @Override
    public int complete(Session session, CommandLine commandLine, List<String> candidates) {
        return new StringsCompleter(commands.names()).complete(session, commandLine, candidates);
    }
}
