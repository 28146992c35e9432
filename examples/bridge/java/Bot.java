// A complete dennou bot in Java for the engine bridge (docs/protocol.md, "The engine bridge").
//
// Build: javac -d . Bot.java
// Run:   dennou bot run --cmd "java -cp . Bot" --join numeron        (on a host)
//        dennou match numeron --bots "cmd:java -cp examples/bridge/java Bot,random"   (locally)
//
// It reads one JSON line at a time from stdin and answers each "turn" with one line
// {"action": ...}: a random action of "legal" when the turn lists them; otherwise it forms one
// as "legal_description" says (Numeron: a number that fits every judgment of its own calls so
// far), else it takes one of "legal_sample". Other lines are ignored; it exits on "quit" or at
// the end of its input. Its notes go to stderr. Standard library only.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public final class Bot {
    private static final Random RANDOM = new Random(12345);

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        String line;
        while ((line = in.readLine()) != null) {
            Object parsed;
            try {
                parsed = new Json(line).value();
            } catch (RuntimeException e) {
                System.err.println("cannot read a line: " + e.getMessage());
                continue;
            }
            if (!(parsed instanceof Map)) continue;
            Map<?, ?> msg = (Map<?, ?>) parsed;
            Object type = msg.get("type");
            if ("hello".equals(type)) {
                System.err.println("hello: seat " + Json.write(msg.get("seat")) + " of " + msg.get("game"));
            } else if ("turn".equals(type)) {
                out.println("{\"action\": " + Json.write(choose(msg)) + "}");
                out.flush();
            } else if ("quit".equals(type)) {
                break;
            }
        }
    }

    static Object choose(Map<?, ?> turn) {
        Object legal = turn.get("legal");
        if (legal instanceof List && !((List<?>) legal).isEmpty()) {
            List<?> actions = (List<?>) legal;
            return actions.get(RANDOM.nextInt(actions.size()));
        }
        int seat = ((Number) turn.get("seat")).intValue();
        Object formed = numeron(turn.get("legal_description"), turn.get("view"), seat);
        if (formed != null) return formed;
        Object sample = turn.get("legal_sample");
        if (sample instanceof List && !((List<?>) sample).isEmpty()) {
            List<?> actions = (List<?>) sample;
            return actions.get(RANDOM.nextInt(actions.size()));
        }
        System.err.println("a turn with nothing to choose from");
        return null;
    }

    // {"form": {"type": T, "number": "<3 distinct digits 0-9>"}} -> {"type": T, "number": "ddd"}
    static Object numeron(Object description, Object view, int seat) {
        if (!(description instanceof Map)) return null;
        Object form = ((Map<?, ?>) description).get("form");
        if (!(form instanceof Map)) return null;
        Object type = ((Map<?, ?>) form).get("type");
        Object pattern = ((Map<?, ?>) form).get("number");
        if (!(type instanceof String) || !(pattern instanceof String)) return null;
        String p = (String) pattern;
        int n = Integer.parseInt(p.substring(1, p.indexOf(' ')));
        boolean distinct = p.contains("distinct");
        List<int[]> calls = new ArrayList<>(); // my calls: digits..., eat, bite
        List<String> numbers = new ArrayList<>();
        Object log = view instanceof Map ? ((Map<?, ?>) view).get("log") : null;
        if (log instanceof List) {
            for (Object e : (List<?>) log) {
                if (!(e instanceof Map) || !"call".equals(((Map<?, ?>) e).get("kind"))) continue;
                Object d = ((Map<?, ?>) e).get("data");
                if (!(d instanceof Map)) continue;
                Map<?, ?> data = (Map<?, ?>) d;
                if (!(data.get("seat") instanceof Number) || ((Number) data.get("seat")).intValue() != seat) continue;
                if (!(data.get("number") instanceof String) || !(data.get("eat") instanceof Number)) continue;
                numbers.add((String) data.get("number"));
                calls.add(new int[] {((Number) data.get("eat")).intValue(), ((Number) data.get("bite")).intValue()});
            }
        }
        int total = (int) Math.pow(10, n);
        int offset = RANDOM.nextInt(total);
        String first = null;
        boolean mustFit = "call".equals(type);
        for (int k = 0; k < total; k++) {
            String candidate = String.format("%0" + n + "d", (offset + k) % total);
            if (distinct && candidate.chars().distinct().count() != n) continue;
            if (first == null) first = candidate;
            if (!mustFit || fits(candidate, numbers, calls)) {
                first = candidate;
                break;
            }
        }
        if (first == null) return null;
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("type", type);
        action.put("number", first);
        return action;
    }

    static boolean fits(String candidate, List<String> numbers, List<int[]> calls) {
        for (int i = 0; i < numbers.size(); i++) {
            String guess = numbers.get(i);
            if (guess.length() != candidate.length()) continue;
            int eat = 0, bite = 0;
            for (int a = 0; a < guess.length(); a++)
                for (int b = 0; b < candidate.length(); b++)
                    if (guess.charAt(a) == candidate.charAt(b)) {
                        if (a == b) eat++;
                        else bite++;
                    }
            if (eat != calls.get(i)[0] || bite != calls.get(i)[1]) return false;
        }
        return true;
    }

    /** A small JSON reader and writer: objects are maps, arrays lists, numbers doubles. */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            if (i >= s.length()) throw new IllegalArgumentException("end of line");
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> map = new LinkedHashMap<>();
                i++;
                skip();
                if (s.charAt(i) == '}') { i++; return map; }
                while (true) {
                    skip();
                    String key = string();
                    skip();
                    expect(':');
                    map.put(key, value());
                    skip();
                    if (s.charAt(i) == ',') { i++; continue; }
                    expect('}');
                    return map;
                }
            }
            if (c == '[') {
                List<Object> list = new ArrayList<>();
                i++;
                skip();
                if (s.charAt(i) == ']') { i++; return list; }
                while (true) {
                    list.add(value());
                    skip();
                    if (s.charAt(i) == ',') { i++; continue; }
                    expect(']');
                    return list;
                }
            }
            if (c == '"') return string();
            if (s.startsWith("null", i)) { i += 4; return null; }
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            if (start == i) throw new IllegalArgumentException("unexpected " + c);
            return Double.parseDouble(s.substring(start, i));
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c != '\\') { b.append(c); continue; }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n': b.append('\n'); break;
                    case 't': b.append('\t'); break;
                    case 'r': b.append('\r'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                    default: b.append(e);
                }
            }
            i++;
            return b.toString();
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        private void expect(char c) {
            if (i >= s.length() || s.charAt(i) != c) throw new IllegalArgumentException("expected " + c);
            i++;
        }

        static String write(Object v) {
            if (v == null) return "null";
            if (v instanceof String) {
                StringBuilder b = new StringBuilder("\"");
                for (char c : ((String) v).toCharArray()) {
                    if (c == '"' || c == '\\') b.append('\\').append(c);
                    else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
                return b.append('"').toString();
            }
            if (v instanceof Double) {
                double d = (Double) v;
                return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
            }
            if (v instanceof Map) {
                StringBuilder b = new StringBuilder("{");
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    if (b.length() > 1) b.append(", ");
                    b.append(write(e.getKey())).append(": ").append(write(e.getValue()));
                }
                return b.append('}').toString();
            }
            if (v instanceof List) {
                StringBuilder b = new StringBuilder("[");
                for (Object o : (List<?>) v) {
                    if (b.length() > 1) b.append(", ");
                    b.append(write(o));
                }
                return b.append(']').toString();
            }
            return v.toString();
        }
    }
}
