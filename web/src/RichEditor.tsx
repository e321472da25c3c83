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
import { useEffect } from 'react';

/**
 * A TipTap editor limited to the marks copydesk stores: bold, italic, underline and strike, and
 * line breaks. Nothing else can be typed or pasted, so what the writer sees is what is saved.
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
}

export function RichEditor({ label, html, editable, onChange, onReady }: RichEditorProps) {
  const editor = useEditor({
    extensions: EXTENSIONS,
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
    if (editor && !editor.isFocused && editor.getHTML() !== html)
      editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);
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
        </div>
      )}
      <EditorContent editor={editor} />
    </div>
  );
}
