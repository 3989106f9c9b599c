package org.rouse.jobs.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rouse.jobs.internal.JobCommands;

/** {@code rouse:trigger <name>} in Karaf's shell: {@link JobCommands#trigger(String)}; the name completes. */
@Service
@Command(scope = "rouse", name = "trigger", description = JobCommands.TRIGGER_HELP)
public final class TriggerAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private JobCommands commands;

    /** The job's name, set by Karaf's parser (which rejects the command without it). */
    @Argument(name = "name", description = JobCommands.NAME_ARGUMENT_HELP, required = true)
    @Completion(JobNameCompleter.class)
    private String name;

    @Override
    public Object execute() {
        commands.trigger(name);
        return null;
    }
}
