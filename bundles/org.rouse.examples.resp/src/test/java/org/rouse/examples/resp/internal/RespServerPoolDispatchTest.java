package org.rouse.examples.resp.internal;

import org.rouse.selector.Dispatch;

/** Every test of {@link RespServerTest} with connections dispatched to the selector's worker pool. */
class RespServerPoolDispatchTest extends RespServerTest {

    @Override
    Dispatch dispatch() {
        return Dispatch.POOL;
    }
}
