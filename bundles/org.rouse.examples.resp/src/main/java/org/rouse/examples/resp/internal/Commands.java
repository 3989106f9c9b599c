package org.rouse.examples.resp.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Executes one command against the key space and appends its reply. The commands and their replies follow the
 * Redis documentation for RESP2; a wrong argument count or an unknown command gets Redis's own error text, so
 * clients show what they would show against a real server.
 */
final class Commands {

    /** What the connection must do after a command. */
    enum Outcome {
        CONTINUE,
        /** {@code QUIT}: write the reply, then close. */
        CLOSE
    }

    private final KeySpace keys;

    Commands(KeySpace keys) {
        this.keys = keys;
    }

    Outcome execute(List<byte[]> command, ReplyBuffer reply) {
        if (command.isEmpty()) {
            return Outcome.CONTINUE; // an empty inline line: Redis ignores it
        }
        String name = new String(command.get(0), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        int arguments = command.size() - 1;
        switch (name) {
            case "ping" -> {
                if (arguments > 1) {
                    return arity(name, reply);
                }
                if (arguments == 1) {
                    reply.bulk(command.get(1));
                } else {
                    reply.simple("PONG");
                }
            }
            case "echo" -> {
                if (arguments != 1) {
                    return arity(name, reply);
                }
                reply.bulk(command.get(1));
            }
            case "set" -> {
                if (arguments != 2) {
                    return arguments > 2 ? syntax(reply) : arity(name, reply);
                }
                keys.set(command.get(1), command.get(2));
                reply.simple("OK");
            }
            case "get" -> {
                if (arguments != 1) {
                    return arity(name, reply);
                }
                reply.bulk(keys.get(command.get(1)));
            }
            case "del" -> {
                if (arguments < 1) {
                    return arity(name, reply);
                }
                reply.integer(keys.removeAll(command.subList(1, command.size())));
            }
            case "exists" -> {
                if (arguments < 1) {
                    return arity(name, reply);
                }
                reply.integer(keys.countExisting(command.subList(1, command.size())));
            }
            case "incr" -> {
                if (arguments != 1) {
                    return arity(name, reply);
                }
                try {
                    reply.integer(keys.increment(command.get(1)));
                } catch (KeySpace.NotAnInteger e) {
                    reply.error("ERR " + e.getMessage());
                }
            }
            case "mget" -> {
                if (arguments < 1) {
                    return arity(name, reply);
                }
                byte[][] values = keys.getAll(command.subList(1, command.size()));
                reply.arrayHeader(values.length);
                for (byte[] value : values) {
                    reply.bulk(value);
                }
            }
            case "quit" -> {
                reply.simple("OK");
                return Outcome.CLOSE;
            }
            // what clients send when they connect: accepted so that they work unchanged
            case "select" -> {
                if (arguments != 1) {
                    return arity(name, reply);
                }
                if ("0".equals(new String(command.get(1), StandardCharsets.US_ASCII))) {
                    reply.simple("OK");
                } else {
                    reply.error("ERR DB index is out of range");
                }
            }
            case "client" -> reply.simple("OK");
            case "command" -> reply.arrayHeader(0);
            default ->
                reply.error("ERR unknown command '" + shortened(name) + "', with args beginning with: "
                        + argumentsQuoted(command));
        }
        return Outcome.CONTINUE;
    }

    private static Outcome arity(String name, ReplyBuffer reply) {
        reply.error("ERR wrong number of arguments for '" + name + "' command");
        return Outcome.CONTINUE;
    }

    private static Outcome syntax(ReplyBuffer reply) {
        reply.error("ERR syntax error");
        return Outcome.CONTINUE;
    }

    /** Redis's rendering of the first arguments in an error: {@code 'a' 'b' }, at most 128 characters. */
    private static String argumentsQuoted(List<byte[]> command) {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i < command.size() && text.length() < 128; i++) {
            text.append('\'')
                    .append(shortened(new String(command.get(i), StandardCharsets.UTF_8)))
                    .append("' ");
        }
        return text.toString();
    }

    private static String shortened(String name) {
        return name.length() > 64 ? name.substring(0, 64) + "..." : name;
    }
}
