// The package ships no types; the tests use only its reader.
declare module 'android-string-resource/asr2js' {
  export default function asr2js(xml: string): Promise<Record<string, unknown>>;
}
