import Bold from '@tiptap/extension-bold';
import Document from '@tiptap/extension-document';
import HardBreak from '@tiptap/extension-hard-break';
import Italic from '@tiptap/extension-italic';
import Paragraph from '@tiptap/extension-paragraph';
import Strike from '@tiptap/extension-strike';
import Text from '@tiptap/extension-text';
import Underline from '@tiptap/extension-underline';
import { UndoRedo } from '@tiptap/extensions';
import { EditorContent, type Editor as TipTap, useEditor } from '@tiptap/react';
import { useEffect, useMemo, useRef } from 'react';
import { type LintMark, type MarkSource, marksKey, plainPositions, textMarks } from './editorMarks';
import { normalMarkup } from './model';

/**
 * A TipTap editor limited to the marks copydesk stores: bold, italic, underline and strike, and
 * line breaks. Nothing else can be typed or pasted, so what the writer sees is what is saved.
 * Placeholders show as tokens and style-guide findings as marks (decorations: editorMarks.ts).
 */
const EXTENSIONS = [Document, Paragraph, Text, Bold, Italic, Underline, Strike, HardBreak, UndoRedo];

const MARKS = [
  { name: 'bold', label: 'Bold', short: 'B', toggle: (e: TipTap) => e.chain().focus().toggleBold().run() },
  { name: 'italic', label: 'Italic', short: 'I', toggle: (e: TipTap) => e.chain().focus().toggleItalic().run() },
  {
    name: 'underline',
    label: 'Underline',
    short: 'U',
    toggle: (e: TipTap) => e.chain().focus().toggleUnderline().run(),
  },
  { name: 'strike', label: 'Strikethrough', short: 'S', toggle: (e: TipTap) => e.chain().focus().toggleStrike().run() },
] as const;

export interface RichEditorProps {
  label: string;
  html: string;
  editable: boolean;
  onChange: (html: string, plain: string) => void;
  onReady?: (editor: TipTap) => void;
  /** Names of the workspace's variables: their placeholders show as tokens, others as unknown. */
  variables?: readonly string[];
  /** Offer these variables in a picker beside the marks (editable editors only). */
  picker?: readonly string[];
  /** Style-guide findings to mark in the text. */
  findings?: readonly LintMark[];
}

/** Markup as the server stores it and as TipTap writes it, compared without their differences. */
const sameMarkup = (a: string, b: string) => normalMarkup(a) === normalMarkup(b);

/** Replaces the plain-text range [start, end) of the editor with `text`, keeping the marks around it. */
export function replacePlainRange(editor: TipTap, start: number, end: number, text: string): void {
  const { positionAt } = plainPositions(editor.state.doc);
  const from = positionAt(start);
  const to = positionAt(end - 1) + 1;
  editor
    .chain()
    .focus()
    .command(({ tr }) => {
      tr.insertText(text, from, to);
      return true;
    })
    .run();
}

export function RichEditor({
  label,
  html,
  editable,
  onChange,
  onReady,
  variables = [],
  picker,
  findings = [],
}: RichEditorProps) {
  const marks = useRef<MarkSource>({ variables: new Set(variables), findings });
  const extensions = useMemo(() => [...EXTENSIONS, textMarks(() => marks.current)], []);
  const editor = useEditor({
    extensions,
    content: html,
    editable,
    editorProps: { attributes: { 'aria-label': label, 'aria-multiline': 'true', role: 'textbox', class: 'rich' } },
    onUpdate: ({ editor: e }) => onChange(e.getHTML(), e.getText({ blockSeparator: '\n' })),
  });
  useEffect(() => {
    if (editor) onReady?.(editor);
  }, [editor, onReady]);
  // An instance detached from its component becomes editable without reopening.
  useEffect(() => {
    if (editor && editor.isEditable !== editable) editor.setEditable(editable, false);
  }, [editor, editable]);
  useEffect(() => {
    if (editor && !editor.isFocused && !sameMarkup(editor.getHTML(), html))
      editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);
  const variableKey = variables.join('\u0000');
  useEffect(() => {
    marks.current = { variables: new Set(variableKey ? variableKey.split('\u0000') : []), findings };
    if (editor && !editor.isDestroyed) editor.view.dispatch(editor.state.tr.setMeta(marksKey, true));
  }, [editor, variableKey, findings]);
  return (
    <div className="rich-editor">
      {editable && (
        <div role="toolbar" aria-label={`${label} formatting`} className="toolbar">
          {MARKS.map((mark) => (
            <button
              key={mark.name}
              type="button"
              aria-label={mark.label}
              aria-pressed={editor?.isActive(mark.name) ?? false}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => editor && mark.toggle(editor)}
            >
              <span className={`mark-${mark.name}`}>{mark.short}</span>
            </button>
          ))}
          {picker && picker.length > 0 && (
            <select
              className="variable-picker"
              aria-label={`Insert variable into ${label}`}
              value=""
              onChange={(e) => {
                const name = e.target.value;
                if (name && editor) editor.chain().focus().insertContent(`{{${name}}}`).run();
              }}
            >
              <option value="">Insert variable…</option>
              {picker.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </div>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
