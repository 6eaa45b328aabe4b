export { Avatar } from "./avatar";
export { Banner } from "./banner";
export { Button } from "./button";
export { Combobox, type ComboOption } from "./combobox";
export { EmptyState } from "./empty-state";
export { Field, TextArea, TextInput } from "./field";
export { Modal, ModalFooter } from "./modal";
export { ScreenLoader, Spinner } from "./spinner";
