package io.tokenpulse.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code bench --help} in labelled groups, the common ones first, as vLLM groups {@code vllm bench
 * serve --help}; the rest of the flags listed by name under "More options", each described by
 * {@code bench --help-all}. A group is one or more of bench's option mixins (by field name), so the
 * mixins and the flags stay as they are; an option no group names lands in "Other options", never lost.
 */
final class BenchHelp {

    /** The option that shows every group with its descriptions. */
    static final String HELP_ALL = "--help-all";

    /**
     * One group of bench's options.
     *
     * @param mixins the {@code @Mixin} fields of {@link BenchCommand} whose options it holds
     * @param own bench's own options (not in a mixin) it holds
     * @param common whether {@code --help} describes it (else only {@code --help-all})
     */
    record Group(String heading, List<String> mixins, List<String> own, boolean common) {}

    static final List<Group> GROUPS = List.of(
            new Group("Target server", List.of("target"), List.of(), true),
            new Group("Dataset", List.of("dataset"), List.of(), true),
            new Group("Traffic", List.of("traffic", "sessions"), List.of(), true),
            new Group("Sampling", List.of("sampling"), List.of(), true),
            new Group("Results, reports and charts", List.of("resultFile", "reporting", "runFiles"), List.of(), true),
            new Group("Built-in simulator", List.of("simulate"), List.of(), true),
            new Group("Run, progress and ids", List.of("run"), List.of(), false),
            new Group("Timeouts", List.of("timeouts"), List.of(), false),
            new Group("Server metrics (the target's /metrics)", List.of("serverMetrics"), List.of(), false),
            new Group(
                    "TokenPulse's pipeline: meters, windows, CPU",
                    List.of("metrics", "windows", "frugal", "pipelineNice"),
                    List.of(),
                    false),
            new Group("Kafka", List.of("kafka", "publisher"), List.of(), false),
            // --verbose is the top command's, inherited
            new Group("Help and messages", List.of("mixinStandardHelpOptions"), List.of(HELP_ALL, "--verbose"), true));

    private BenchHelp() {}

    /** Replaces bench's one option list by the groups. */
    static void install(CommandLine bench) {
        Map<String, CommandLine.IHelpSectionRenderer> sections = bench.getHelpSectionMap();
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, help -> "");
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, BenchHelp::render);
    }

    /** Each group's options by their longest names, in declaration order; the options no group names last. */
    static Map<Group, List<OptionSpec>> grouped(CommandSpec spec) {
        Map<Group, List<OptionSpec>> grouped = new java.util.LinkedHashMap<>();
        Set<String> placed = new LinkedHashSet<>();
        for (Group group : GROUPS) {
            Set<String> names = new LinkedHashSet<>(group.own());
            for (String mixin : group.mixins()) {
                CommandSpec mixed = spec.mixins().get(mixin);
                if (mixed != null) {
                    mixed.options().forEach(o -> names.add(o.longestName()));
                }
            }
            List<OptionSpec> options = new ArrayList<>();
            for (OptionSpec option : spec.options()) {
                if (!option.hidden() && names.contains(option.longestName()) && placed.add(option.longestName())) {
                    options.add(option);
                }
            }
            grouped.put(group, options);
        }
        List<OptionSpec> other = spec.options().stream()
                .filter(o -> !o.hidden() && !placed.contains(o.longestName()))
                .toList();
        if (!other.isEmpty()) {
            grouped.put(new Group("Other options", List.of(), List.of(), true), other);
        }
        return grouped;
    }

    private static String render(Help help) {
        CommandSpec spec = help.commandSpec();
        OptionSpec helpAll = spec.findOption(HELP_ALL);
        boolean all = helpAll != null && Boolean.TRUE.equals(helpAll.getValue());
        StringBuilder out = new StringBuilder();
        List<String> more = new ArrayList<>();
        for (Map.Entry<Group, List<OptionSpec>> entry : grouped(spec).entrySet()) {
            Group group = entry.getKey();
            List<OptionSpec> options = entry.getValue();
            if (options.isEmpty()) {
                continue;
            }
            if (all || group.common()) {
                out.append('\n')
                        .append(group.heading())
                        .append(":\n")
                        .append(help.optionListExcludingGroups(
                                options, help.createDefaultLayout(), null, help.parameterLabelRenderer()));
            } else {
                more.add(group.heading() + ": "
                        + String.join(
                                " ",
                                options.stream().map(OptionSpec::longestName).toList()));
            }
        }
        if (!more.isEmpty()) {
            out.append("\nMore options (described by 'bench ").append(HELP_ALL).append("'):\n");
            int width = spec.usageMessage().width();
            for (String line : more) {
                out.append(wrap(line, width));
            }
        }
        return out.toString();
    }

    /** A line wrapped at spaces to {@code width}, continuation lines indented. */
    private static String wrap(String line, int width) {
        StringBuilder out = new StringBuilder("  ");
        int column = 2;
        for (String word : line.split(" ")) {
            if (column > 2 && column + 1 + word.length() > width) {
                out.append("\n      ");
                column = 6;
            } else if (column > 2) {
                out.append(' ');
                column++;
            }
            out.append(word);
            column += word.length();
        }
        return out.append('\n').toString();
    }
}
