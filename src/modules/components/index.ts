/**
 * The component library's public face: its service, and the record and request schemas other
 * modules reuse (text item records share the component record's fields; the v0/v1 API validates
 * its writes with the same component schemas).
 */
export {
  ComponentRecord,
  type ComponentUpdateInput,
  componentSchemas,
  type NewComponentInput,
} from './components.schemas.js';
export { type ComponentsService, createComponentsService } from './components.service.js';
