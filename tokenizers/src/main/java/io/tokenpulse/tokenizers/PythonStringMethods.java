package io.tokenpulse.tokenizers;

import java.beans.FeatureDescriptor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELResolver;

/**
 * The Python {@code str} methods chat templates call ({@code content.startswith('x')},
 * {@code .split('</think>')}, {@code .lstrip('\n')}): Jinjava would look for Java methods of these
 * names and find none, or find Java's regex {@code split}. Only method calls on strings are resolved
 * here; everything else falls through to Jinjava's own resolvers.
 */
final class PythonStringMethods extends ELResolver {

    @Override
    public Object invoke(ELContext context, Object base, Object method, Class<?>[] paramTypes, Object[] params) {
        if (!(base instanceof String text) || method == null) {
            return null;
        }
        Object[] args = params == null ? new Object[0] : params;
        String first = args.length > 0 && args[0] != null ? args[0].toString() : null;
        Object result;
        switch (method.toString()) {
            case "startswith" -> result = first != null && text.startsWith(first);
            case "endswith" -> result = first != null && text.endsWith(first);
            case "strip" -> result = stripTrailing(stripLeading(text, first), first);
            case "lstrip" -> result = stripLeading(text, first);
            case "rstrip" -> result = stripTrailing(text, first);
            case "split" -> result = first == null ? splitOnWhitespace(text) : splitOnLiteral(text, first);
            case "upper" -> result = text.toUpperCase(Locale.ROOT);
            case "lower" -> result = text.toLowerCase(Locale.ROOT);
            case "replace" -> result = args.length >= 2 ? text.replace(first, String.valueOf(args[1])) : null;
            default -> {
                return null;
            }
        }
        if (result == null) {
            return null;
        }
        context.setPropertyResolved(true);
        return result;
    }

    /** Python's {@code str.lstrip(chars)}: no argument strips whitespace, else any of {@code chars}. */
    static String stripLeading(String text, String chars) {
        int start = 0;
        while (start < text.length() && strippable(text.charAt(start), chars)) {
            start++;
        }
        return text.substring(start);
    }

    static String stripTrailing(String text, String chars) {
        int end = text.length();
        while (end > 0 && strippable(text.charAt(end - 1), chars)) {
            end--;
        }
        return text.substring(0, end);
    }

    private static boolean strippable(char c, String chars) {
        return chars == null ? Character.isWhitespace(c) : chars.indexOf(c) >= 0;
    }

    /** Python's {@code str.split(sep)}: a literal separator, empty pieces kept. */
    static List<String> splitOnLiteral(String text, String separator) {
        if (separator.isEmpty()) {
            throw new IllegalArgumentException("chat template called split with an empty separator");
        }
        List<String> pieces = new ArrayList<>();
        int from = 0;
        for (int at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, from)) {
            pieces.add(text.substring(from, at));
            from = at + separator.length();
        }
        pieces.add(text.substring(from));
        return pieces;
    }

    private static List<String> splitOnWhitespace(String text) {
        String stripped = text.strip();
        return stripped.isEmpty() ? new ArrayList<>() : new ArrayList<>(Arrays.asList(stripped.split("\\s+")));
    }

    // Read-only resolver of method calls only: property access is left to the next resolver.
    @Override
    public Object getValue(ELContext context, Object base, Object property) {
        return null;
    }

    @Override
    public Class<?> getType(ELContext context, Object base, Object property) {
        return null;
    }

    @Override
    public void setValue(ELContext context, Object base, Object property, Object value) {
        // never resolves a property, so nothing to set
    }

    @Override
    public boolean isReadOnly(ELContext context, Object base, Object property) {
        return true;
    }

    @Override
    public Iterator<FeatureDescriptor> getFeatureDescriptors(ELContext context, Object base) {
        return null;
    }

    @Override
    public Class<?> getCommonPropertyType(ELContext context, Object base) {
        return null;
    }
}
