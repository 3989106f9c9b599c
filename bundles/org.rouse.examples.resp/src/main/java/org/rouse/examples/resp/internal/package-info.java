/**
 * Example consumer: a RESP2 (Redis protocol) server on the Rouse selector service, its key space guarded by the
 * lock service's stripes and its idle timeouts on the timer service. Private; exports nothing.
 */
package org.rouse.examples.resp.internal;
