package io.tokenpulse.cli.vllm;

import io.tokenpulse.schemas.python.PythonFloat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Prints a command's parsed options the way Python prints an argparse {@code Namespace}, because
 * vLLM's benchmark prints that line first and users' log parsers look for it. Secret values are
 * redacted. Hand-written: no library renders Python reprs.
 */
public final class PythonNamespace {
    private PythonNamespace() {}

    /** The Namespace line, attributes named in {@code order} first and in that order, then the rest as declared. */
    public static String format(CommandSpec spec, List<String> order) {
        return options(spec, order).stream()
                .map(o -> attributeName(o) + "=" + repr(attributeName(o), o.getValue()))
                .collect(Collectors.joining(", ", "Namespace(", ")"));
    }

    /**
     * The command's options without --help/--version (and bench's --help-all, a help option that is
     * not picocli's usageHelp: picocli warns about a second one), in {@code order} (by attribute
     * name), then as declared.
     */
    static List<OptionSpec> options(CommandSpec spec, List<String> order) {
        return spec.options().stream()
                .filter(o ->
                        !o.usageHelp() && !o.versionHelp() && !o.longestName().equals("--help-all"))
                .sorted(java.util.Comparator.comparingInt(o -> {
                    int at = order.indexOf(attributeName(o));
                    return at < 0 ? order.size() : at; // a stable sort keeps the rest in declaration order
                }))
                .toList();
    }

    static String attributeName(OptionSpec option) {
        return option.longestName().replaceFirst("^-+", "").replace('-', '_');
    }

    static String repr(String name, Object value) {
        if (value != null && Redaction.isSecretKey(name)) {
            return "'" + Redaction.REDACTED + "'";
        }
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value instanceof Double d) {
            return PythonFloat.repr(d);
        }
        if (value instanceof Number n) {
            return n.toString();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> repr(name, v)).collect(Collectors.joining(", ", "[", "]"));
        }
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream()
                    .map(e -> repr("", String.valueOf(e.getKey())) + ": "
                            + repr(String.valueOf(e.getKey()), e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        return "'" + value.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** Parses a number as Python's {@code float()} does: also {@code inf}, {@code -inf}, {@code nan}. */
    public static Double parsePythonFloat(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        return switch (t) {
            case "inf", "+inf", "infinity", "+infinity" -> Double.POSITIVE_INFINITY;
            case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> {
                try {
                    yield Double.valueOf(t);
                } catch (NumberFormatException e) {
                    // picocli prints this after "Invalid value for option '--flag': "
                    throw new CommandLine.TypeConversionException(
                            "'" + text + "' is not a number; write e.g. 2, 0.5 or inf");
                }
            }
        };
    }
}
