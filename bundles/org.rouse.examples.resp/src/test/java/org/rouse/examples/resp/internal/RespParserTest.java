package org.rouse.examples.resp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RespParserTest {

    private static final RespParser.Limits LIMITS = new RespParser.Limits(64, 4, 32);

    private static List<String> strings(List<byte[]> command) {
        List<String> result = new ArrayList<>();
        for (byte[] argument : command) {
            result.add(new String(argument, StandardCharsets.UTF_8));
        }
        return result;
    }

    private static void feed(RespParser parser, String text) {
        parser.append(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<List<String>> parseAll(RespParser parser) throws RespParser.ProtocolException {
        List<List<String>> commands = new ArrayList<>();
        List<byte[]> command;
        while ((command = parser.next()) != null) {
            commands.add(strings(command));
        }
        return commands;
    }

    @Test
    void parsesPipelinedMultiBulkAndInlineCommands() throws Exception {
        RespParser parser = new RespParser(LIMITS);
        feed(parser, "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nv a\r\n\r\nPING\r\n  ECHO   hi \r\n*1\r\n$3\r\nGET");
        assertEquals(List.of(List.of("SET", "k", "v a\r\n"), List.of("PING"), List.of("ECHO", "hi")), parseAll(parser));
        assertEquals(11, parser.buffered(), "the incomplete command stays buffered");
        feed(parser, "\r\n");
        assertEquals(List.of(List.of("GET")), parseAll(parser));
        assertEquals(0, parser.buffered());
    }

    @Test
    void aLongPipelineFedInOddPiecesIsParsedWholeAndInOrder() throws Exception {
        StringBuilder wire = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            wire.append(String.format("*2\r\n$4\r\nECHO\r\n$3\r\n%03d\r\nPING %03d\r\n", i, i));
        }
        RespParser parser = new RespParser(LIMITS);
        List<List<String>> got = new ArrayList<>();
        for (int from = 0; from < wire.length(); from += 37) { // pieces that end mid-command and fill the buffer
            feed(parser, wire.substring(from, Math.min(wire.length(), from + 37)));
            got.addAll(parseAll(parser));
        }
        assertEquals(1000, got.size());
        for (int i = 0; i < 500; i++) {
            String n = String.format("%03d", i);
            assertEquals(List.of("ECHO", n), got.get(2 * i));
            assertEquals(List.of("PING", n), got.get(2 * i + 1));
        }
        assertEquals(0, parser.buffered());
    }

    @Test
    void theInlineLimitCountsOnlyTheLineItself() throws Exception {
        RespParser parser = new RespParser(LIMITS);
        String line = "ECHO " + "x".repeat(50) + "\r\n"; // 57 bytes, under the limit of 64
        feed(parser, "PING\r\n".repeat(10) + line);
        List<List<String>> got = parseAll(parser);
        assertEquals(11, got.size(), "60 bytes of earlier commands do not count against the next line");
        assertEquals(List.of("ECHO", "x".repeat(50)), got.get(10));
        feed(parser, "PING " + "y".repeat(70));
        assertThrows(RespParser.ProtocolException.class, parser::next, "an unterminated line past the limit");
    }

    @Test
    void aCommandSplitAtEveryByteGivesTheSameResult() throws Exception {
        String wire = "*2\r\n$4\r\nECHO\r\n$10\r\n0123456789\r\nINCR counter\n*1\r\n$4\r\nPING\r\n";
        List<List<String>> expected =
                List.of(List.of("ECHO", "0123456789"), List.of("INCR", "counter"), List.of("PING"));
        for (int split = 0; split <= wire.length(); split++) {
            RespParser parser = new RespParser(LIMITS);
            feed(parser, wire.substring(0, split));
            List<List<String>> got = new ArrayList<>(parseAll(parser));
            feed(parser, wire.substring(split));
            got.addAll(parseAll(parser));
            assertEquals(expected, got, "split at " + split);
        }
    }

    @Test
    void anEmptyInlineLineIsAnEmptyCommand() throws Exception {
        RespParser parser = new RespParser(LIMITS);
        feed(parser, "\r\n");
        assertTrue(parser.next().isEmpty());
        assertNull(parser.next());
    }

    @Test
    void malformedInputIsAProtocolError() {
        for (String bad : List.of(
                "*x\r\n", "*-1\r\n", "*1\r\n+PING\r\n", "*1\r\n$a\r\n", "*1\r\n$2\r\nabcd\r\n", "*1\n$4\r\nPING\r\n")) {
            RespParser parser = new RespParser(LIMITS);
            feed(parser, bad);
            assertThrows(RespParser.ProtocolException.class, parser::next, bad);
        }
    }

    @Test
    void lengthsAreBoundedBeforeAnythingIsBuffered() {
        String tooLongInline = "x".repeat(65);
        String tooManyArguments = "*5\r\n";
        String tooLongBulk = "*1\r\n$33\r\n";
        String hugeNumber = "*1\r\n$99999999999999999999999\r\n";
        String endlessHeader = "*1\r\n$" + "1".repeat(40);
        String tooManyInlineArguments = "a b c d e\r\n";
        for (String bad : List.of(
                tooLongInline, tooManyArguments, tooLongBulk, hugeNumber, endlessHeader, tooManyInlineArguments)) {
            RespParser parser = new RespParser(LIMITS);
            feed(parser, bad);
            RespParser.ProtocolException e = assertThrows(RespParser.ProtocolException.class, parser::next, bad);
            assertTrue(e.getMessage().startsWith("too") || e.getMessage().startsWith("invalid"), e.getMessage());
        }
    }

    @Test
    void aLargeBulkArrivingInPiecesIsAssembled() throws Exception {
        RespParser parser = new RespParser(new RespParser.Limits(64, 4, 1 << 20));
        String value = "v".repeat(1 << 20);
        String wire = "*2\r\n$4\r\nECHO\r\n$" + value.length() + "\r\n" + value + "\r\n";
        for (int i = 0; i < wire.length(); i += 1000) {
            assertNull(parser.next());
            feed(parser, wire.substring(i, Math.min(wire.length(), i + 1000)));
        }
        assertEquals(List.of("ECHO", value), strings(parser.next()));
    }
}
