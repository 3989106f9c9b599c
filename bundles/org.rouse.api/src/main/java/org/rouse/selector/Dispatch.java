package org.rouse.selector;

/** Where a {@link ChannelHandler} runs. */
public enum Dispatch {
    /**
     * Off the selecting thread: on a worker of the pool, or (an engine may do this) on the loop thread that found the
     * channel ready, once it has handed the selecting to another thread. The channel is not selected while its
     * handler runs and is re-armed, with a wakeup, when it returns. The default: a slow handler delays only its own
     * channel.
     */
    POOL,
    /**
     * On the loop thread, i.e. the thread selecting at that moment (an engine may run one loop on two threads in
     * turn, so a handler should not keep the {@link Thread} it ran on). For handlers that only copy bytes and never
     * block; saves the hand-off to the pool.
     */
    INLINE
}
