package org.rouse.selector.spi;

import java.nio.channels.SelectableChannel;
import org.osgi.annotation.versioning.ProviderType;

/** One registered channel as an engine sees it. Created by the selector front. */
@ProviderType
public interface SelectorEntry {

    /** The channel; open and non-blocking while the entry is attached. */
    SelectableChannel channel();

    /**
     * The operations to select now: zero while the registration is suspended or its handler is running, the
     * registration's interest operations otherwise.
     */
    int interestOps();

    /** Whether the engine calls {@link #dispatch(int)} on its loop thread rather than on a worker. */
    boolean inline();

    /**
     * Runs the handler for {@code readyOps}, then re-arms through the front. Never throws: a failing handler closes
     * its own channel.
     */
    void dispatch(int readyOps);

    /** A slot the engine the entry is attached to may use (e.g. for its {@code SelectionKey}). */
    Object engineSlot();

    /** Sets the engine's slot; see {@link #engineSlot()}. */
    void engineSlot(Object slot);
}
