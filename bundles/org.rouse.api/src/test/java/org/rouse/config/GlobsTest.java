package org.rouse.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class GlobsTest {

    @Test
    void starMatchesAnyRunQuestionMarkOneCharacterAndTheRestIsLiteral() {
        Pattern keys = Globs.compile("key.space*");
        assertTrue(keys.matcher("key.space#3").matches());
        assertTrue(keys.matcher("key.space").matches());
        assertFalse(keys.matcher("keyXspace#3").matches(), "'.' is literal, not a regex wildcard");
        Pattern one = Globs.compile("lock?");
        assertTrue(one.matcher("lock7").matches());
        assertFalse(one.matcher("lock").matches());
        assertFalse(one.matcher("lock77").matches());
    }

    @Test
    void anyOfSeveralGlobsAndNoneMatchesNothing() {
        Pattern cluster = Globs.compileAny(List.of("cluster.*", "shared"));
        assertTrue(cluster.matcher("cluster.orders").matches());
        assertTrue(cluster.matcher("shared").matches());
        assertFalse(cluster.matcher("shared2").matches());
        assertFalse(cluster.matcher("local").matches());
        assertFalse(Globs.compileAny(List.of()).matcher("").matches());
        assertFalse(Globs.compileAny(List.of()).matcher("anything").matches());
    }
}
