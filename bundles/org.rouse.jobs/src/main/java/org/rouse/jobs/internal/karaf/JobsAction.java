package org.rouse.jobs.internal.karaf;

import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.rouse.jobs.internal.JobCommands;

/** {@code rouse:jobs} in Karaf's shell: {@link JobCommands#jobs()}. */
@Service
@Command(scope = "rouse", name = "jobs", description = JobCommands.JOBS_HELP)
public final class JobsAction implements Action {

    /** Injected by Karaf's shell when it creates the action. */
    @Reference
    private JobCommands commands;

    @Override
    public Object execute() {
        commands.jobs();
        return null;
    }
}
