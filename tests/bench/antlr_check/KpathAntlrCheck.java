/* KpathAntlrCheck: the acceptance test of tests/bench/antlr_check.sh.
 *
 *   java KpathAntlrCheck LEXER_CLASS PARSER_CLASS START_RULE FILE...
 *
 * Each FILE is read as UTF-8, tokenized by the lexer ANTLR generated from
 * the grammar and parsed from START_RULE by its generated parser.  A file is
 * accepted when neither the lexer nor the parser reports a syntax error and
 * the parse ends at the end of the file (kpath always reads a whole input,
 * so a start rule that stops early is a rejection here).  One line per file:
 *   ok FILE
 *   reject FILE<TAB>lexer|parser|trailing LINE:COL MESSAGE
 * The exit status is 0 when every file was accepted, 1 otherwise. */
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;

import org.antlr.v4.runtime.*;

public final class KpathAntlrCheck {
    private static final class FirstError extends BaseErrorListener {
        private final String kind;
        String first;

        FirstError(String kind) {
            this.kind = kind;
        }

        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object symbol, int line, int col,
                                String msg, RecognitionException e) {
            if (first == null)
                first = kind + " " + line + ":" + (col + 1) + " " + msg;
        }
    }

    private static String check(Class<?> lexerClass, Class<?> parserClass, String start,
                                String file) throws Exception {
        CharStream chars = CharStreams.fromPath(Paths.get(file), StandardCharsets.UTF_8);
        Lexer lexer = (Lexer) lexerClass.getConstructor(CharStream.class).newInstance(chars);
        lexer.removeErrorListeners();
        FirstError lexErrors = new FirstError("lexer");
        lexer.addErrorListener(lexErrors);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        Parser parser = (Parser) parserClass.getConstructor(TokenStream.class).newInstance(tokens);
        parser.removeErrorListeners();
        FirstError parseErrors = new FirstError("parser");
        parser.addErrorListener(parseErrors);
        parserClass.getMethod(start).invoke(parser);
        if (lexErrors.first != null)
            return lexErrors.first;
        if (parseErrors.first != null)
            return parseErrors.first;
        Token next = tokens.LT(1);
        if (next.getType() != Token.EOF)
            return "trailing " + next.getLine() + ":" + (next.getCharPositionInLine() + 1)
                + " input left after the start rule: '" + next.getText() + "'";
        return null;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: KpathAntlrCheck LEXER PARSER START FILE...");
            System.exit(2);
        }
        Class<?> lexerClass = Class.forName(args[0]);
        Class<?> parserClass = Class.forName(args[1]);
        boolean all = true;
        for (int i = 3; i < args.length; i++) {
            String why;
            try {
                why = check(lexerClass, parserClass, args[2], args[i]);
            } catch (InvocationTargetException e) {
                why = "parser exception " + e.getCause();
            } catch (StackOverflowError e) {
                why = "parser stack overflow";
            } catch (Exception e) {
                why = "error " + e;
            }
            if (why == null) {
                System.out.println("ok " + args[i]);
            } else {
                all = false;
                System.out.println("reject " + args[i] + "\t" + why.replace('\n', ' '));
            }
        }
        System.exit(all ? 0 : 1);
    }
}
