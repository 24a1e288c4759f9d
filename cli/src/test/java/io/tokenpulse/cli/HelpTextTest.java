package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** What {@code --help} shows a newcomer: every option described, no project-internal words. */
class HelpTextTest {

    @Test
    void everyOptionOfEveryCommandHasADescription() {
        List<String> undescribed = new ArrayList<>();
        for (CommandLine command : commands(TokenPulse.newCommandLine())) {
            for (OptionSpec option : command.getCommandSpec().options()) {
                String text = String.join(" ", option.description()).trim();
                if (text.isEmpty()) {
                    undescribed.add(command.getCommandSpec().qualifiedName() + " " + option.longestName());
                }
            }
        }
        assertThat(undescribed).as("options without a description").isEmpty();
    }

    /**
     * "seed" is the name of a random seed ({@code --seed}) and a value of {@code --vllm-block}; the
     * project's seed reports mean nothing to a user.
     */
    @Test
    void helpTextSpeaksOfNoSeedReports() {
        Pattern internal = Pattern.compile("seed \\d{3}|seed report|seeds'|the seeds?\\b", Pattern.CASE_INSENSITIVE);
        for (CommandLine command : commands(TokenPulse.newCommandLine())) {
            StringWriter text = new StringWriter();
            command.usage(new PrintWriter(text));
            assertThat(internal.matcher(text.toString()).find())
                    .as(command.getCommandSpec().qualifiedName() + " --help: " + text)
                    .isFalse();
        }
    }

    private static List<CommandLine> commands(CommandLine top) {
        List<CommandLine> all = new ArrayList<>();
        all.add(top);
        for (CommandLine sub : top.getSubcommands().values()) {
            if (!all.contains(sub)) {
                all.addAll(commands(sub));
            }
        }
        return all;
    }
}
