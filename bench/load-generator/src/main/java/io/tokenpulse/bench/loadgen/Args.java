package io.tokenpulse.bench.loadgen;

import java.util.HashMap;
import java.util.Map;

/** {@code key=value} arguments over defaults; an unknown key fails with the list of known ones. */
final class Args {

    private Args() {}

    static Map<String, String> parse(String[] args, Map<String, String> defaults) {
        Map<String, String> opts = new HashMap<>(defaults);
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            if (kv.length != 2 || !opts.containsKey(kv[0])) {
                throw new IllegalArgumentException("unknown argument '" + arg + "'; use key=value with keys "
                        + new java.util.TreeSet<>(defaults.keySet()));
            }
            opts.put(kv[0], kv[1]);
        }
        return opts;
    }
}
